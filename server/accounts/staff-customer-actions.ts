import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { sessions, staffActions, users } from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { authFor, resetEmailOutcome } from "./auth";
import { forgetSignedInUsers } from "./current-user";
import { isStaffRole } from "@core/staff-roles";

/**
 * Issue 11, /admin/clientes: what staff may do to a customer's account. The e-mails go through
 * better-auth's own flows (the same tokens, templates and outbox keys as when the customer asks
 * on /forgot-password or after signing up). better-auth writes the outbox row on its own
 * connection, so the audit row is written first, in a transaction that also refuses a second
 * request within a minute (a double click, another tab): the audit row is the claim.
 */

export const CUSTOMER_EMAIL_INTERVAL_MS = 60_000;

export type CustomerAccountResult = { ok: true; changed: boolean; message: string } | { ok: false; reason: "not_found" | "refused"; message: string };

const NOT_FOUND = "No encontramos a ese cliente.";
const SEND_FAILED = "No se pudo poner el correo en la cola de envío. Intenta nuevamente en unos minutos.";

type LockedCustomer = { id: string; email: string; role: string; status: string; emailVerified: boolean };

async function lockCustomer(tx: Transaction, userId: string): Promise<LockedCustomer | undefined> {
  const [row] = await tx
    .select({ id: users.id, email: users.email, role: users.role, status: users.status, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  return row;
}

/** Staff accounts are managed on /admin/equipo; an anonymised account has no one left to write to. */
function accountRefusal(customer: LockedCustomer | undefined): CustomerAccountResult | null {
  if (!customer) return { ok: false, reason: "not_found", message: NOT_FOUND };
  if (isStaffRole(customer.role)) return { ok: false, reason: "refused", message: "Esta cuenta es del equipo: gestiónala en Equipo." };
  if (customer.status === "anonymized") return { ok: false, reason: "refused", message: "Este cliente fue anonimizado: su cuenta ya no se puede usar." };
  return null;
}

async function claimEmailAction(
  db: Database,
  actor: StaffActor,
  userId: string,
  action: "customer.resend_verification" | "customer.send_password_reset",
): Promise<{ refusal: CustomerAccountResult } | { email: string }> {
  return inTransaction(db, async (tx) => {
    const customer = await lockCustomer(tx, userId);
    const refusal = accountRefusal(customer);
    if (refusal) return { refusal };
    if (customer!.status !== "active")
      return { refusal: { ok: false, reason: "refused", message: "La cuenta está desactivada: reactívala antes de enviarle correos de acceso." } };
    if (action === "customer.resend_verification" && customer!.emailVerified)
      return { refusal: { ok: false, reason: "refused", message: "El correo de este cliente ya está verificado." } };
    const [recent] = await tx
      .select({ id: staffActions.id })
      .from(staffActions)
      .where(
        and(
          eq(staffActions.entityType, "user"),
          eq(staffActions.entityId, customer!.id),
          eq(staffActions.action, action),
          gt(staffActions.createdAt, sql`now() - ${`${CUSTOMER_EMAIL_INTERVAL_MS} milliseconds`}::interval`),
        ),
      )
      .orderBy(desc(staffActions.id))
      .limit(1);
    if (recent) return { refusal: { ok: false, reason: "refused", message: "Ya se envió este correo hace menos de un minuto. Espera antes de reenviarlo." } };
    // Only the account id is recorded: the audit log is append-only and outlives an anonymisation.
    await recordStaffAction(tx, actor, { action, entityType: "user", entityId: customer!.id, before: null, after: { sent: true } });
    return { email: customer!.email };
  });
}

/** "Reenviar verificación": better-auth's verification e-mail, for an account not yet verified. */
export async function resendCustomerVerification(db: Database, actor: StaffActor, userId: string): Promise<CustomerAccountResult> {
  const claim = await claimEmailAction(db, actor, userId, "customer.resend_verification");
  if ("refusal" in claim) return claim.refusal;
  try {
    await authFor(db).api.sendVerificationEmail({ body: { email: claim.email } });
  } catch (error) {
    console.error("[accounts] verification e-mail could not be queued", error);
    return { ok: false, reason: "refused", message: SEND_FAILED };
  }
  return { ok: true, changed: true, message: `Enviamos un nuevo enlace de verificación a ${claim.email}.` };
}

/** "Enviar enlace para restablecer la contraseña": the same one-hour link as /forgot-password. */
export async function sendCustomerPasswordReset(db: Database, actor: StaffActor, userId: string): Promise<CustomerAccountResult> {
  const claim = await claimEmailAction(db, actor, userId, "customer.send_password_reset");
  if ("refusal" in claim) return claim.refusal;
  const outcome = { failed: false };
  try {
    await resetEmailOutcome.run(outcome, () => authFor(db).api.requestPasswordReset({ body: { email: claim.email } }));
  } catch (error) {
    console.error("[accounts] password reset e-mail could not be queued", error);
    return { ok: false, reason: "refused", message: SEND_FAILED };
  }
  if (outcome.failed) return { ok: false, reason: "refused", message: SEND_FAILED };
  return { ok: true, changed: true, message: `Enviamos un enlace para restablecer la contraseña a ${claim.email}.` };
}

/**
 * Deactivate or reactivate a customer's account (decision 0051): a deactivated customer cannot
 * sign in (signIn refuses it) and every session ends in the same transaction; their orders,
 * deliveries and subscriptions are left exactly as they are (staff act on those on their own
 * pages). Setting the status it already has changes and records nothing.
 */
export async function setCustomerStatus(
  db: Database,
  actor: StaffActor,
  input: { userId: string; status: "active" | "inactive" },
): Promise<CustomerAccountResult> {
  const result = await inTransaction(db, async (tx): Promise<CustomerAccountResult> => {
    const customer = await lockCustomer(tx, input.userId);
    const refusal = accountRefusal(customer);
    if (refusal) return refusal;
    if (customer!.status === input.status)
      return { ok: true, changed: false, message: input.status === "active" ? "La cuenta ya estaba activa." : "La cuenta ya estaba desactivada." };
    await tx.update(users).set({ status: input.status, updatedAt: new Date() }).where(eq(users.id, customer!.id));
    if (input.status !== "active") await tx.delete(sessions).where(eq(sessions.userId, customer!.id));
    await recordStaffAction(tx, actor, {
      action: input.status === "active" ? "customer.reactivate" : "customer.deactivate",
      entityType: "user",
      entityId: customer!.id,
      before: { status: customer!.status },
      after: { status: input.status },
    });
    return {
      ok: true,
      changed: true,
      message: input.status === "active" ? "Cuenta reactivada: el cliente ya puede ingresar." : "Cuenta desactivada: sus sesiones se cerraron.",
    };
  });
  if (result.ok && result.changed) forgetSignedInUsers();
  return result;
}
