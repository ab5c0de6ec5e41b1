import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeStaffRole, createStaffMember, getSignedInUser, listStaffMembers, register, setStaffStatus, signIn } from "@server/accounts/index.server";
import { listStaffActions, type StaffActor } from "@server/audit/index.server";
import { sessions, staffActions, users } from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const PASSWORD = "Equipo2024";

/** A request carrying the cookies better-auth set, as the browser would send them back. */
function requestWith(headers: Headers): Request {
  const cookie = headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  return new Request("http://localhost/admin", { headers: { cookie } });
}

describe("team management (issue 10, /admin/equipo)", () => {
  let test: TestDatabase;
  let admin: StaffActor;
  let client = 0;
  const signInAs = (email: string, password = PASSWORD) => signIn(test.db, { email, password, remember: true, client: `team-${(client += 1)}` });
  const auditRowsFor = (entityId: string) => test.db.select().from(staffActions).where(eq(staffActions.entityId, entityId)).orderBy(staffActions.id);

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email));
    admin = { id: row!.id, email: DEMO_ADMIN.email, role: "admin", clientAddress: "203.0.113.7" };
  });
  afterAll(() => test.close());

  async function created(email: string, role: "operaciones" | "repartidor" | "admin" = "operaciones") {
    const result = await createStaffMember(test.db, admin, { firstName: "Lucía", lastName: "Ramos", email, role, password: PASSWORD });
    if (!result.ok) throw new Error(result.message);
    return result.userId;
  }

  it("creates a staff member who signs in on /login at once and lands on /admin, audited with who, from where and the after state", async () => {
    const id = await created("Lucia.Ramos@Prueba.pe");
    const result = await signInAs("lucia.ramos@prueba.pe");
    expect(result).toMatchObject({ ok: true, landingPath: "/admin" });
    const signedIn = await getSignedInUser(test.db, requestWith((result as { headers: Headers }).headers));
    expect(signedIn).toMatchObject({ id, role: "operaciones", email: "lucia.ramos@prueba.pe", emailVerified: true });
    expect((await listStaffMembers(test.db)).find((member) => member.id === id)).toMatchObject({ role: "operaciones", status: "active", firstName: "Lucía" });
    const [entry] = await auditRowsFor(id);
    expect(entry).toMatchObject({
      action: "staff.create",
      actorEmail: DEMO_ADMIN.email,
      actorRole: "admin",
      clientAddress: "203.0.113.7",
      entityType: "user",
      before: null,
    });
    expect(entry!.after).toEqual({ email: "lucia.ramos@prueba.pe", role: "operaciones", status: "active" });
  });

  it("sends customers to /dashboard after signing in", async () => {
    const registered = await register(test.db, {
      firstName: "Rosa",
      lastName: "Quispe",
      email: "rosa.landing@prueba.pe",
      password: PASSWORD,
      client: "team-register-1",
    });
    expect(registered.ok).toBe(true);
    expect(await signInAs("rosa.landing@prueba.pe")).toMatchObject({ ok: true, landingPath: "/dashboard" });
  });

  it("refuses a second account for a staff address, and offers a customer's own account for the role instead", async () => {
    await created("doble@prueba.pe");
    const again = await createStaffMember(test.db, admin, {
      firstName: "Otra",
      lastName: "Persona",
      email: "DOBLE@prueba.pe",
      role: "repartidor",
      password: PASSWORD,
    });
    expect(again).toMatchObject({ ok: false, reason: "staff_exists" });

    const registered = await register(test.db, {
      firstName: "Pedro",
      lastName: "Cliente",
      email: "pedro.cliente@prueba.pe",
      password: "Cliente999",
      client: "team-register-2",
    });
    expect(registered.ok).toBe(true);
    const offer = await createStaffMember(test.db, admin, {
      firstName: "Pedro",
      lastName: "Cliente",
      email: "pedro.cliente@prueba.pe",
      role: "repartidor",
      password: PASSWORD,
    });
    expect(offer).toMatchObject({ ok: false, reason: "customer_exists", customer: { fullName: "Pedro Cliente" } });
    const customerId = (offer as { customer: { id: string } }).customer.id;
    expect(await test.db.select().from(users).where(eq(users.email, "pedro.cliente@prueba.pe"))).toHaveLength(1);

    expect(await changeStaffRole(test.db, admin, { userId: customerId, role: "repartidor" })).toEqual({ ok: true, changed: true });
    // Same account, same password: the customer's own, not the one typed for the new account.
    expect(await signInAs("pedro.cliente@prueba.pe", "Cliente999")).toMatchObject({ ok: true, landingPath: "/admin" });
    expect((await auditRowsFor(customerId)).map((row) => [row.action, row.before, row.after])).toEqual([
      ["staff.promote", { role: "customer" }, { role: "repartidor" }],
    ]);
  });

  it("changes a role once however often it is asked, recording before and after", async () => {
    const id = await created("rol@prueba.pe", "repartidor");
    expect(await changeStaffRole(test.db, admin, { userId: id, role: "operaciones" })).toEqual({ ok: true, changed: true });
    expect(await changeStaffRole(test.db, admin, { userId: id, role: "operaciones" })).toEqual({ ok: true, changed: false });
    expect(await changeStaffRole(test.db, admin, { userId: id, role: "customer" })).toEqual({ ok: true, changed: true });
    const [row] = await test.db.select({ role: users.role }).from(users).where(eq(users.id, id));
    expect(row!.role).toBe("customer");
    expect((await auditRowsFor(id)).map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ["staff.create", null, { email: "rol@prueba.pe", role: "repartidor", status: "active" }],
      ["staff.role_change", { role: "repartidor" }, { role: "operaciones" }],
      ["staff.remove", { role: "operaciones" }, { role: "customer" }],
    ]);
    expect(await changeStaffRole(test.db, admin, { userId: "no-such-user", role: "operaciones" })).toMatchObject({ ok: false, reason: "not_found" });
  });

  it("deactivating ends the member's open sessions at once and refuses their next sign-in; reactivating lets them back", async () => {
    const id = await created("baja@prueba.pe");
    const first = await signInAs("baja@prueba.pe");
    const second = await signInAs("baja@prueba.pe");
    const open = [first, second].map((result) => requestWith((result as { headers: Headers }).headers));
    expect(await getSignedInUser(test.db, open[0]!)).not.toBeNull();

    expect(await setStaffStatus(test.db, admin, { userId: id, status: "inactive" })).toEqual({ ok: true, changed: true });
    for (const request of open) expect(await getSignedInUser(test.db, request)).toBeNull();
    expect(await test.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    expect(await signInAs("baja@prueba.pe")).toEqual({ ok: false, message: expect.stringContaining("desactivada") });
    // The refused sign-in left no session behind.
    expect(await test.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    expect(await setStaffStatus(test.db, admin, { userId: id, status: "inactive" })).toEqual({ ok: true, changed: false });

    expect(await setStaffStatus(test.db, admin, { userId: id, status: "active" })).toEqual({ ok: true, changed: true });
    expect(await signInAs("baja@prueba.pe")).toMatchObject({ ok: true });
    const actions = (await auditRowsFor(id)).map((entry) => [entry.action, entry.before, entry.after]);
    expect(actions.slice(1)).toEqual([
      ["staff.deactivate", { role: "operaciones", status: "active" }, { role: "operaciones", status: "inactive" }],
      ["staff.reactivate", { role: "operaciones", status: "inactive" }, { role: "operaciones", status: "active" }],
    ]);
  });

  it("refuses an admin demoting or deactivating themselves, changing and recording nothing", async () => {
    const before = await auditRowsFor(admin.id);
    expect(await changeStaffRole(test.db, admin, { userId: admin.id, role: "operaciones" })).toMatchObject({
      ok: false,
      reason: "self",
      message: expect.stringContaining("No puedes quitarte"),
    });
    expect(await setStaffStatus(test.db, admin, { userId: admin.id, status: "inactive" })).toMatchObject({
      ok: false,
      reason: "self",
      message: "No puedes desactivar tu propia cuenta.",
    });
    const [row] = await test.db.select({ role: users.role, status: users.status }).from(users).where(eq(users.id, admin.id));
    expect(row).toEqual({ role: "admin", status: "active" });
    expect(await auditRowsFor(admin.id)).toEqual(before);
  });

  it("filters the audit log by person, record and Lima date range", async () => {
    const other: StaffActor = { id: "otro-admin", email: "segunda.admin@prueba.pe", role: "admin", clientAddress: null };
    const id = await created("filtros@prueba.pe", "repartidor");
    await changeStaffRole(test.db, { ...other }, { userId: id, role: "operaciones" });

    const byPerson = await listStaffActions(test.db, { actor: "segunda.admin" });
    expect(byPerson.rows.map((row) => [row.action, row.entityId])).toEqual([["staff.role_change", id]]);
    const byRecord = await listStaffActions(test.db, { entityType: "user", entityId: id });
    expect(byRecord.rows.map((row) => row.action)).toEqual(["staff.role_change", "staff.create"]);
    expect((await listStaffActions(test.db, { entityType: "order", entityId: id })).rows).toEqual([]);

    // 04:30 UTC is still the day before in Lima (UTC−5).
    const [late] = await test.db
      .insert(staffActions)
      .values({
        actorId: admin.id,
        actorEmail: admin.email,
        actorRole: "admin",
        action: "staff.role_change",
        entityType: "user",
        entityId: "fecha",
        createdAt: new Date("2030-03-02T04:30:00Z"),
      })
      .returning();
    const onFirst = await listStaffActions(test.db, { entityId: "fecha", from: "2030-03-01", to: "2030-03-01" });
    expect(onFirst.rows.map((row) => row.id)).toEqual([late!.id]);
    expect((await listStaffActions(test.db, { entityId: "fecha", from: "2030-03-02", to: "2030-03-02" })).rows).toEqual([]);
    expect(
      await test.db
        .select()
        .from(staffActions)
        .where(and(eq(staffActions.entityId, "fecha"), eq(staffActions.actorId, admin.id))),
    ).toHaveLength(1);
  });
});
