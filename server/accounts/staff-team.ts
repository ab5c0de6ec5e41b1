import { may } from "@core/staff-permissions";
import { randomUUID } from "node:crypto";
import { asc, eq, ne, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { accounts, sessions, users } from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { forgetSignedInUsers } from "./current-user";
import { hashPassword } from "./password-hash";
import { isStaffRole, type StaffRole, type UserRole } from "@core/staff-roles";

/**
 * The team page (issue 10, /admin/equipo): the admin creates staff accounts, changes roles and
 * deactivates or reactivates them. Every change is one transaction with its audit row
 * (before → after role and status). A staff account is an ordinary account with a staff role, so
 * the same person can also shop with it (decisions.md, Roles).
 */

export type UserStatus = "active" | "inactive";

export interface StaffMemberRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: StaffRole;
  status: UserStatus;
}

export type TeamChangeResult = { ok: true; changed: boolean } | { ok: false; reason: "not_found" | "self" | "not_staff"; message: string };

export type CreateStaffResult =
  | { ok: true; userId: string }
  /** The address belongs to a customer: the page offers to give that account the role instead. */
  | { ok: false; reason: "customer_exists"; message: string; customer: { id: string; fullName: string } }
  | { ok: false; reason: "staff_exists" | "inactive_account"; message: string };

const SELF_DEMOTION = "No puedes quitarte el rol de administración a ti mismo. Pídeselo a otra persona con ese rol.";
const SELF_DEACTIVATION = "No puedes desactivar tu propia cuenta.";
const NOT_FOUND = "No encontramos a esa persona del equipo.";

/** Everyone with a staff role, active first, then by name. */
export async function listStaffMembers(db: Database): Promise<StaffMemberRow[]> {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: users.role, status: users.status })
    .from(users)
    .where(ne(users.role, "customer"))
    .orderBy(asc(users.status), asc(users.firstName), asc(users.lastName), asc(users.id));
  return rows
    .filter((row) => isStaffRole(row.role))
    .map((row) => ({ ...row, role: row.role as StaffRole, status: row.status === "active" ? "active" : "inactive" }));
}

/**
 * A new account with a staff role and the password the admin chose (checked by the page's strength
 * rules), hashed like every other password, so the person signs in on /login at once. The admin
 * vouches for the address, so it counts as verified and no verification e-mail is sent.
 */
export async function createStaffMember(
  db: Database,
  actor: StaffActor,
  input: { firstName: string; lastName: string; email: string; role: StaffRole; password: string },
): Promise<CreateStaffResult> {
  const email = input.email.trim().toLowerCase();
  const existing = await accountByEmail(db, email);
  if (existing) return existingAccountAnswer(existing);
  const passwordHash = await hashPassword(input.password);
  const id = randomUUID();
  const inserted = await inTransaction(db, async (tx) => {
    const rows = await tx
      .insert(users)
      .values({
        id,
        name: `${input.firstName} ${input.lastName}`,
        email,
        emailVerified: true,
        firstName: input.firstName,
        lastName: input.lastName,
        role: input.role,
        status: "active",
      })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (rows.length === 0) return false;
    await tx.insert(accounts).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash });
    await recordStaffAction(tx, actor, {
      action: "staff.create",
      entityType: "user",
      entityId: id,
      before: null,
      after: { email, role: input.role, status: "active" },
    });
    return true;
  });
  if (inserted) return { ok: true, userId: id };
  // Someone created the same address between the check and the insert (a double click).
  const winner = await accountByEmail(db, email);
  return winner ? existingAccountAnswer(winner) : { ok: false, reason: "staff_exists", message: "Ya existe una cuenta con este correo." };
}

type ExistingAccount = { id: string; firstName: string; lastName: string; role: string; status: string };

async function accountByEmail(db: Database, email: string): Promise<ExistingAccount | undefined> {
  const [row] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, role: users.role, status: users.status })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  return row;
}

function existingAccountAnswer(account: ExistingAccount): CreateStaffResult {
  if (account.status !== "active")
    return { ok: false, reason: "inactive_account", message: "Ya existe una cuenta desactivada con este correo. Reactívala desde la lista del equipo." };
  if (isStaffRole(account.role)) return { ok: false, reason: "staff_exists", message: "Esta persona ya es parte del equipo. Cambia su rol desde la lista." };
  return {
    ok: false,
    reason: "customer_exists",
    message:
      "Ya existe una cuenta de cliente con este correo. Puedes darle el rol a esa misma cuenta: conserva su contraseña y sus pedidos, y podrá seguir comprando.",
    customer: { id: account.id, fullName: `${account.firstName} ${account.lastName}`.trim() },
  };
}

/**
 * Gives a role to an account, or takes every staff role away (`customer`): the account stays and
 * can still shop. An admin cannot take their own admin role away, so there is always one left who
 * can undo a mistake. Setting the role it already has changes (and records) nothing.
 */
export async function changeStaffRole(db: Database, actor: StaffActor, input: { userId: string; role: UserRole }): Promise<TeamChangeResult> {
  if (input.userId === actor.id && !may(input.role, "equipo.gestionar")) return { ok: false, reason: "self", message: SELF_DEMOTION };
  return forgetSignedInUsersAfter(
    inTransaction(db, async (tx): Promise<TeamChangeResult> => {
      const member = await lockUser(tx, input.userId);
      if (!member) return { ok: false, reason: "not_found", message: NOT_FOUND };
      if (member.status !== "active") return { ok: false, reason: "not_staff", message: "Reactiva la cuenta antes de cambiar su rol." };
      if (member.role === input.role) return { ok: true, changed: false };
      await tx.update(users).set({ role: input.role, updatedAt: new Date() }).where(eq(users.id, member.id));
      const action = member.role === "customer" ? "staff.promote" : input.role === "customer" ? "staff.remove" : "staff.role_change";
      await recordStaffAction(tx, actor, { action, entityType: "user", entityId: member.id, before: { role: member.role }, after: { role: input.role } });
      return { ok: true, changed: true };
    }),
  );
}

/** A changed role or status applies to the member's very next request, here and (within seconds) elsewhere. */
async function forgetSignedInUsersAfter(change: Promise<TeamChangeResult>): Promise<TeamChangeResult> {
  const result = await change;
  if (result.ok && result.changed) forgetSignedInUsers();
  return result;
}

/**
 * Deactivating ends every session of the person in the same transaction, so their next request is
 * already anonymous (getSignedInUser also refuses any account that is not active). Only staff
 * accounts are handled here; nobody deactivates themselves.
 */
export async function setStaffStatus(db: Database, actor: StaffActor, input: { userId: string; status: UserStatus }): Promise<TeamChangeResult> {
  if (input.userId === actor.id && input.status !== "active") return { ok: false, reason: "self", message: SELF_DEACTIVATION };
  return forgetSignedInUsersAfter(
    inTransaction(db, async (tx): Promise<TeamChangeResult> => {
      const member = await lockUser(tx, input.userId);
      if (!member || !isStaffRole(member.role)) return { ok: false, reason: "not_found", message: NOT_FOUND };
      if (member.status === input.status) return { ok: true, changed: false };
      await tx.update(users).set({ status: input.status, updatedAt: new Date() }).where(eq(users.id, member.id));
      if (input.status !== "active") await tx.delete(sessions).where(eq(sessions.userId, member.id));
      await recordStaffAction(tx, actor, {
        action: input.status === "active" ? "staff.reactivate" : "staff.deactivate",
        entityType: "user",
        entityId: member.id,
        before: { role: member.role, status: member.status },
        after: { role: member.role, status: input.status },
      });
      return { ok: true, changed: true };
    }),
  );
}

async function lockUser(tx: Transaction, userId: string) {
  const [row] = await tx.select({ id: users.id, role: users.role, status: users.status }).from(users).where(eq(users.id, userId)).for("update");
  return row;
}
