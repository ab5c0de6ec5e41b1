import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "@server/accounts/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { confirmedConsent } from "../support/promotional-consent";
import {
  anonymiseCustomer,
  anonymiseGuest,
  anonymisePerson,
  anonymizedPersonEmailFor,
  exportPersonData,
  findPerson,
  loadPersonPicture,
  searchCustomers,
} from "@server/customers/index.server";
import { customersMatching } from "@server/customers/search";
import {
  abandonedCarts,
  complaintAnonymisations,
  complaints,
  contactMessages,
  outboxEmails,
  paymentMethods,
  promotionalConsentEvents,
  providerErasures,
  staffActions,
  users,
} from "@server/db/schema";
import { DEMO_ADMIN } from "@server/db/seed/demo-accounts";
import { inTransaction } from "@server/db/transaction";
import { runDueJobs } from "@server/jobs/index.server";
import { createFlowClient } from "@server/payments/flow";
import { expectConsoleError } from "../support/fail-on-console-error";
import { startFlowMock, type FlowMock } from "../support/flow-mock";
import { insertComplaint, insertOrder } from "../support/data-subject-records";
import { createTestDatabase, rowsOf, type TestDatabase } from "../support/test-database";

/** Decision 0064: Ley 29733 requests of people who never bought, and Flow customers deleted at anonymisation. */
describe("people who never bought in /admin/clientes (decision 0064)", () => {
  let test: TestDatabase;
  let admin: StaffActor;

  const auditRows = (entityId: string, action?: string) =>
    test.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.entityId, entityId), action ? eq(staffActions.action, action) : undefined))
      .orderBy(staffActions.id);

  const complaint = (email: string, filedAt = new Date("2026-04-02T15:00:00Z"), documentNumber = "45670001") =>
    insertComplaint(test.db, email, {
      year: 2098,
      filedAt,
      consumerNames: "Nélida",
      consumerSurnames: "Quispe Sáenz",
      documentNumber,
      address: "Pasaje Los Sauces 12",
      phone: "944555666",
      goodType: "servicio",
      goodDescription: "Atención telefónica",
      kind: "queja",
      detail: "No me devolvieron la llamada.",
      consumerRequest: "Que me llamen.",
    });
  async function account(firstName: string, email: string): Promise<string> {
    const registered = await register(test.db, { firstName, lastName: "Prueba", email, password: "Cliente2024", client: `people-${email}` });
    if (!registered.ok) throw new Error(registered.message);
    const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return row!.id;
  }
  const guestOrder = (email: string) => insertOrder(test.db, { districtId: 1, userId: null, customerEmail: email });

  async function message(email: string, createdAt = new Date("2026-04-01T15:00:00Z")): Promise<string> {
    const [row] = await test.db
      .insert(contactMessages)
      .values({
        submissionId: randomUUID(),
        name: "Nelly Quispe",
        email,
        phone: "944555666",
        subject: "¿Reparten en Surco?",
        message: "Vivo en Pasaje Los Sauces 12",
        createdAt,
      })
      .returning({ id: contactMessages.id });
    return row!.id;
  }

  async function consent(email: string): Promise<string> {
    await confirmedConsent(test.db, email, new Date(), { clientAddress: "198.51.100.91", userAgent: "Safari" });
    const [row] = await test.db
      .select({ id: promotionalConsentEvents.id })
      .from(promotionalConsentEvents)
      .where(eq(promotionalConsentEvents.email, email))
      .orderBy(promotionalConsentEvents.id);
    return `consentimiento-${row!.id}`;
  }

  async function cart(email: string): Promise<string> {
    const [row] = await test.db
      .insert(abandonedCarts)
      .values({ email, items: [{ productId: 1, variantId: null, quantity: 3 }], subtotalCents: 4500, createdAt: new Date("2026-03-30T15:00:00Z") })
      .returning({ id: abandonedCarts.id });
    return `carrito-${row!.id}`;
  }

  /** Someone known by all four: a sheet, a message, a consent event, a saved cart, and the sheet's copy by e-mail. */
  async function everything(email: string) {
    const sheet = await complaint(email);
    const note = await message(email);
    const consentRef = await consent(email);
    const cartRef = await cart(email);
    await test.db.insert(outboxEmails).values({
      dedupeKey: `person-test:${randomUUID()}`,
      kind: "complaint-copy",
      toAddress: email,
      subject: "Tu hoja de reclamación",
      html: "<p>Pasaje Los Sauces 12</p>",
      text: "Pasaje Los Sauces 12",
    });
    return { sheetRef: `reclamo-${sheet}`, sheet, messageRef: `mensaje-${note}`, note, consentRef, cartRef };
  }

  const personRows = async (q: string) => (await searchCustomers(test.db, q, 1)).rows.filter((row) => row.kind === "person");

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [adminRow] = await test.db.select().from(users).where(eq(users.email, DEMO_ADMIN.email));
    admin = { id: adminRow!.id, email: adminRow!.email, role: "admin", clientAddress: "203.0.113.9" };
  });
  afterAll(() => test.close());

  it("search lists a person once per e-mail from any of their rows, named by the sheet the law keeps, and leaves accounts' and guests' e-mails to them", async () => {
    const email = "nunca.compro@prueba.pe";
    const { sheetRef } = await everything(email);
    for (const q of ["NUNCA.comp", email, "45670001"])
      expect(await personRows(q), q).toEqual([
        expect.objectContaining({ id: sheetRef, email, fullName: "Nélida Quispe Sáenz", kind: "person", documentNumber: "45670001" }),
      ]);
    // A name is not searched in these rows (only orders and accounts have name indexes), nor is an empty box.
    expect(await personRows("nélida quispe")).toEqual([]);
    expect((await searchCustomers(test.db, "", 1)).rows.some((row) => row.kind === "person")).toBe(false);

    // Known by one row each: that row names them.
    const consentRef = await consent("solo.consentimiento@prueba.pe");
    const cartRef = await cart("solo.carrito@prueba.pe");
    const messageId = await message("solo.mensaje@prueba.pe");
    expect((await personRows("solo.")).map((row) => [row.email, row.id, row.fullName])).toEqual([
      ["solo.carrito@prueba.pe", cartRef, ""],
      ["solo.consentimiento@prueba.pe", consentRef, ""],
      ["solo.mensaje@prueba.pe", `mensaje-${messageId}`, "Nelly Quispe"],
    ]);

    // An account or a guest order has the e-mail: their picture covers it, the person is not listed twice.
    const accountId = await account("Con", "escribio.con.cuenta@prueba.pe");
    const withAccount = await message("escribio.con.cuenta@prueba.pe");
    const boughtAsGuest = await guestOrder("Ya.Compro@prueba.pe");
    const withGuestOrder = await message("ya.compro@prueba.pe");
    expect((await searchCustomers(test.db, "escribio.con", 1)).rows.map((row) => row.kind)).toEqual(["account"]);
    expect((await searchCustomers(test.db, "ya.compro", 1)).rows.map((row) => row.kind)).toEqual(["guest"]);
    expect(await loadPersonPicture(test.db, `mensaje-${withAccount}`)).toEqual({ kind: "account", userId: accountId });
    expect(await findPerson(test.db, `mensaje-${withGuestOrder}`)).toEqual({ kind: "guest", orderId: boughtAsGuest });
    expect(await anonymisePerson(test.db, admin, `mensaje-${withGuestOrder}`, new Date())).toEqual({ ok: false, reason: "guest", orderId: boughtAsGuest });

    // References are checked: unknown or malformed ones name nobody.
    for (const reference of [`mensaje-${randomUUID()}`, `reclamo-${messageId}`, "consentimiento-0", "carrito-x", "pedido-1", `${email}`, "mensaje-"])
      expect(await findPerson(test.db, reference), reference).toBeNull();
  });

  it("every arm of the search is answerable from an index: no table is read whole", async () => {
    for (const q of ["nunca.comp", "45670001"]) {
      const plan = await inTransaction(test.db, async (tx) => {
        // With sequential scans priced out, one is chosen only where no index can answer.
        await tx.execute(sql`set local enable_seqscan = off`);
        return rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql`explain ${customersMatching(q)}`))
          .map((line) => line["QUERY PLAN"])
          .join("\n");
      });
      // The accounts' arm reads users without dedicated indexes (decision 0051); the arms of this decision never.
      expect(plan, q).not.toMatch(/Seq Scan on (complaints|complaint_anonymisations|contact_messages|promotional_consent_events|abandoned_carts)\b/);
      for (const index of [
        "complaints_email_prefix_idx",
        ...(q.includes(".")
          ? ["contact_messages_email_prefix_idx", "promotional_consent_events_email_prefix_idx", "abandoned_carts_email_prefix_idx"]
          : ["complaints_document_idx"]),
      ])
        expect(plan, `${q}: ${index}`).toContain(index);
    }
  });

  it("shows the person's whole picture through any of their rows", async () => {
    const email = "retrato.persona@prueba.pe";
    const refs = await everything(email);
    await complaint(email, new Date("2026-03-15T15:00:00Z"), "45670002");
    for (const reference of [refs.sheetRef, refs.messageRef, refs.consentRef, refs.cartRef]) {
      const found = await loadPersonPicture(test.db, reference);
      if (found?.kind !== "person") throw new Error(`${reference} names no person`);
      const picture = found.value;
      expect(picture.person, reference).toEqual({
        kind: "person",
        reference,
        email,
        name: "Nélida Quispe Sáenz",
        phone: "944555666",
        document: "DNI 45670001",
        firstSeenAt: "2026-03-15T15:00:00.000Z",
        anonymized: false,
      });
      expect(picture.orders).toEqual([]);
      expect(picture.complaints).toHaveLength(2);
      expect(picture.contactMessages.map((row) => row.id)).toEqual([refs.note]);
      expect(picture.consent).toMatchObject({ granted: true, source: "checkout" });
      expect(picture.abandonedCart).toMatchObject({ subtotalCents: 4500, items: 1 });
      expect(picture.emails.map((row) => row.kind)).toEqual(["complaint-copy"]);
    }
    // A uuid in capitals names the same row.
    expect(await findPerson(test.db, refs.messageRef.replace(refs.note, refs.note.toUpperCase()))).toMatchObject({
      kind: "person",
      value: { reference: refs.messageRef },
    });
  });

  it("exports everything held under the e-mail in the one export format, audited by reference without the e-mail", async () => {
    const email = "exporta.persona@prueba.pe";
    const { messageRef } = await everything(email);
    const found = await exportPersonData(test.db, admin, messageRef, new Date("2026-04-03T12:00:00Z"));
    if (found?.kind !== "person") throw new Error("not a person");
    const document = found.value;
    expect(document).toMatchObject({
      format: "vida-alcalina/datos-personales/1",
      exportedAt: "2026-04-03T12:00:00.000Z",
      sessions: [],
      subscriptions: [],
      orders: [],
    });
    expect(document.profile).toEqual({
      kind: "person",
      email,
      name: "Nélida Quispe Sáenz",
      phone: "944555666",
      document: "DNI 45670001",
      firstSeenAt: "2026-03-30T15:00:00.000Z",
    });
    expect(document.complaints).toEqual([expect.objectContaining({ consumerNames: "Nélida", detail: "No me devolvieron la llamada.", answer: null })]);
    expect(document.contactMessages).toEqual([expect.objectContaining({ message: "Vivo en Pasaje Los Sauces 12" })]);
    expect(document.promotionalConsent).toEqual([expect.objectContaining({ granted: true, clientAddress: "198.51.100.91" })]);
    expect(document.abandonedCarts).toEqual([expect.objectContaining({ subtotalCents: 4500 })]);
    expect(document.emails.map((row) => row.text)).toEqual(["Pasaje Los Sauces 12"]);
    expect(JSON.stringify(document)).not.toContain("accessTokenHash");
    const audit = await auditRows(messageRef, "person.export");
    expect(audit).toEqual([
      expect.objectContaining({
        actorEmail: DEMO_ADMIN.email,
        entityType: "person",
        after: { orders: 0, invoices: 0, emails: 1, complaints: 1, contactMessages: 1, consentEvents: 1 },
      }),
    ]);
    expect(JSON.stringify(audit)).not.toContain(email);
  });

  it("anonymises a person: their data rewritten or gone, the complaint sheet kept as filed and no longer offered; a second run changes nothing", async () => {
    const email = "borrar.persona@prueba.pe";
    const refs = await everything(email);
    const bystander = await message("vecino.persona@prueba.pe");
    const sheetBefore = await test.db.select().from(complaints).where(eq(complaints.id, refs.sheet));
    const now = new Date("2026-04-04T15:00:00Z");

    expect(await anonymisePerson(test.db, admin, refs.messageRef, now)).toEqual({ ok: true, alreadyAnonymized: false, pageRemains: true });

    const placeholder = anonymizedPersonEmailFor(refs.messageRef);
    for (const table of ["outbox_emails", "promotional_consent_events", "contact_messages", "abandoned_carts"]) {
      const text = JSON.stringify(rowsOf(await test.db.execute(sql.raw(`select t::text as row from ${table} t`))));
      expect(text.includes(email), `${email} left in ${table}`).toBe(false);
    }
    expect(await test.db.select().from(contactMessages).where(eq(contactMessages.id, refs.note))).toEqual([
      expect.objectContaining({ email: placeholder, name: "[anonimizado]", phone: null, message: "[anonimizado]", subject: "¿Reparten en Surco?" }),
    ]);
    expect(
      (await test.db.select().from(promotionalConsentEvents).where(eq(promotionalConsentEvents.email, placeholder))).map((event) => [
        event.granted,
        event.clientAddress,
        event.userAgent,
      ]),
    ).toEqual([[true, null, null]]);
    expect((await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, placeholder))).map((row) => row.text)).toEqual(["[anonimizado]"]);
    // Kept: the sheet exactly as filed (legal record), marked; someone else's message untouched.
    expect(await test.db.select().from(complaints).where(eq(complaints.id, refs.sheet))).toEqual(sheetBefore);
    expect(await test.db.select().from(complaintAnonymisations).where(eq(complaintAnonymisations.complaintId, refs.sheet))).toEqual([
      { complaintId: refs.sheet, anonymisedAt: now },
    ]);
    expect((await test.db.select({ email: contactMessages.email }).from(contactMessages).where(eq(contactMessages.id, bystander)))[0]!.email).toBe(
      "vecino.persona@prueba.pe",
    );

    expect(await personRows("borrar.persona")).toEqual([]);
    expect(await personRows("45670001")).not.toContainEqual(expect.objectContaining({ email }));
    expect(await findPerson(test.db, refs.messageRef)).toMatchObject({
      kind: "person",
      value: { anonymized: true, email: placeholder, name: "[anonimizado]" },
    });
    expect(await findPerson(test.db, refs.sheetRef)).toMatchObject({ kind: "person", value: { anonymized: true, name: "Nélida Quispe Sáenz" } });
    expect(await findPerson(test.db, refs.cartRef)).toBeNull();
    const audit = await auditRows(refs.messageRef, "person.anonymize");
    expect(audit).toEqual([expect.objectContaining({ entityType: "person", after: { status: "anonymized" } })]);
    expect(JSON.stringify(audit)).not.toContain(email);

    // Again, through the same row or any other: nothing changes, no second audit row.
    const messageAfter = await test.db.select().from(contactMessages).where(eq(contactMessages.id, refs.note));
    for (const reference of [refs.messageRef, refs.sheetRef, refs.consentRef])
      expect(await anonymisePerson(test.db, admin, reference, new Date()), reference).toMatchObject({ ok: true, alreadyAnonymized: true });
    expect(await anonymisePerson(test.db, admin, refs.cartRef, new Date())).toMatchObject({ ok: false, reason: "not_found" });
    expect(await test.db.select().from(contactMessages).where(eq(contactMessages.id, refs.note))).toEqual(messageAfter);
    expect(await auditRows(refs.messageRef, "person.anonymize")).toHaveLength(1);
    expect([...(await auditRows(refs.sheetRef)), ...(await auditRows(refs.consentRef)), ...(await auditRows(refs.cartRef))]).toEqual([]);
  });

  it("two anonymisations of one person at once, through two of their rows: one does it, the other finds it done", async () => {
    const refs = await everything("doble.persona@prueba.pe");
    const results = await Promise.all([
      anonymisePerson(test.db, admin, refs.consentRef, new Date()),
      anonymisePerson(test.db, admin, refs.sheetRef, new Date()),
    ]);
    expect(results.map((result) => result.ok && result.alreadyAnonymized).sort()).toEqual([false, true]);
    expect(
      await test.db
        .select()
        .from(staffActions)
        .where(and(eq(staffActions.action, "person.anonymize"), inArray(staffActions.entityId, [refs.consentRef, refs.sheetRef]))),
    ).toHaveLength(1);
  });

  it("the complaint sheets of an anonymised guest or account are not offered again as someone who never bought", async () => {
    const guestEmail = "invitada.reclamo@prueba.pe";
    await complaint(guestEmail);
    const boughtAsGuest = await guestOrder(guestEmail);
    expect(await anonymiseGuest(test.db, admin, boughtAsGuest, new Date())).toEqual({ ok: true, alreadyAnonymized: false });
    expect((await searchCustomers(test.db, guestEmail, 1)).rows).toEqual([]);

    const accountEmail = "cuenta.reclamo@prueba.pe";
    const accountId = await account("Cuenta", accountEmail);
    await complaint(accountEmail);
    expect(await anonymiseCustomer(test.db, admin, accountId, new Date())).toMatchObject({ ok: true, alreadyAnonymized: false });
    expect((await searchCustomers(test.db, accountEmail, 1)).rows).toEqual([]);
  });

  describe("saved Flow cards deleted at Flow on anonymisation", () => {
    let flow: FlowMock;
    beforeAll(async () => {
      flow = await startFlowMock();
    });
    afterAll(() => flow.close());

    it("schedules one deletion per Flow customer, deletes it at Flow outside the transaction, retries a refusal and takes an already deleted customer as done", async () => {
      const client = createFlowClient({ apiKey: flow.apiKey, secretKey: flow.secretKey, apiBase: flow.apiBase, timeoutMs: 5_000 });
      const email = "tarjeta.flow@prueba.pe";
      const userId = await account("Tarjeta", email);
      const flowCustomer = async () => {
        const created = await client.createCustomer({ name: "Tarjeta Flow", email, externalId: userId });
        if (created.kind !== "ok") throw new Error("no Flow customer");
        return created.body.customerId;
      };
      const owing = await flowCustomer();
      const lostAnswer = await flowCustomer();
      // Two registrations on one Flow customer (the card was replaced), and a second Flow customer.
      await test.db.insert(paymentMethods).values([
        { userId, provider: "flow", providerCustomerId: owing, providerCardId: `${owing}:TOKENA`, brand: "Visa", last4: "6623", revokedAt: new Date() },
        { userId, provider: "flow", providerCustomerId: owing, providerCardId: `${owing}:TOKENB`, brand: "Visa", last4: "6623" },
        { userId, provider: "flow", providerCustomerId: lostAnswer, providerCardId: `${lostAnswer}:TOKENC`, brand: "Visa", last4: "6623" },
      ]);
      const erasures = () => test.db.select().from(providerErasures).where(eq(providerErasures.userId, userId)).orderBy(providerErasures.reference);
      const deletesAtFlow = (customerId: string) =>
        flow.requests.filter((request) => request.path === "/customer/delete" && request.params.customerId === customerId).map((request) => request.status);
      const now = new Date("2026-04-05T15:00:00Z");

      expect(await anonymiseCustomer(test.db, admin, userId, now)).toMatchObject({ ok: true, alreadyAnonymized: false });
      expect((await erasures()).map((row) => [row.provider, row.objectKind, row.reference, row.status]).sort()).toEqual(
        [
          ["flow", "customer", owing, "pending"],
          ["flow", "customer", lostAnswer, "pending"],
        ].sort(),
      );
      // Nothing was asked of Flow inside the transaction.
      expect([...deletesAtFlow(owing), ...deletesAtFlow(lostAnswer)]).toEqual([]);

      // One customer owes Flow an amount (Flow refuses); the other was deleted by an attempt whose answer was lost.
      flow.setAmountDue(owing, true);
      expect(await client.deleteCustomer(lostAnswer)).toMatchObject({ kind: "ok" });
      expectConsoleError(/deleting flow customer .* failed \(attempt 1: Flow 401 \(1004\): El cliente tiene suscripciones activas/);
      const first = await runDueJobs(test.db, { now, only: ["providerErasures"], culqi: null, flow: client });
      expect(first.results.providerErasures).toEqual({ done: 1, failed: 1 });
      const byReference = async (reference: string) => (await erasures()).find((row) => row.reference === reference)!;
      expect(await byReference(lostAnswer)).toMatchObject({ status: "done", attempts: 1, lastError: null });
      expect(await byReference(owing)).toMatchObject({
        status: "pending",
        attempts: 1,
        lastError: expect.stringContaining("importes pendientes"),
        nextAttemptAt: new Date(now.getTime() + 5 * 60_000),
      });
      expect(flow.customers.get(owing)!.status).toBe("1");

      // Not due yet: Flow is not asked; once due and nothing is owed, Flow deletes it.
      expect((await runDueJobs(test.db, { now, only: ["providerErasures"], culqi: null, flow: client })).results.providerErasures).toEqual({
        done: 0,
        failed: 0,
      });
      flow.setAmountDue(owing, false);
      const later = new Date(now.getTime() + 6 * 60_000);
      expect((await runDueJobs(test.db, { now: later, only: ["providerErasures"], culqi: null, flow: client })).results.providerErasures).toEqual({
        done: 1,
        failed: 0,
      });
      expect(await byReference(owing)).toMatchObject({ status: "done", attempts: 2, lastError: null, doneAt: later });
      expect(flow.customers.get(owing)).toMatchObject({ status: "0", last4CardDigits: null });
      expect(deletesAtFlow(lostAnswer)).toEqual([200, 401]);
      expect(deletesAtFlow(owing)).toEqual([401, 200]);
      // Run again, the anonymisation schedules nothing twice.
      expect(await anonymiseCustomer(test.db, admin, userId, later)).toMatchObject({ ok: true, alreadyAnonymized: true });
      expect(await erasures()).toHaveLength(2);
    });

    it("leaves Flow deletions waiting, with the reason, while Flow is not configured", async () => {
      const email = "sin.flow@prueba.pe";
      const userId = await account("Sin", email);
      await test.db.insert(paymentMethods).values({ userId, provider: "flow", providerCustomerId: "cus_sinflow01", providerCardId: "cus_sinflow01:TOKEN" });
      const now = new Date("2026-04-06T15:00:00Z");
      expect(await anonymiseCustomer(test.db, admin, userId, now)).toMatchObject({ ok: true });
      expectConsoleError(/deleting flow customer cus_sinflow01 failed \(attempt 1: Flow is not configured/);
      expect((await runDueJobs(test.db, { now, only: ["providerErasures"], culqi: null, flow: null })).results.providerErasures).toEqual({
        done: 0,
        failed: 1,
      });
      const [row] = await test.db.select().from(providerErasures).where(eq(providerErasures.reference, "cus_sinflow01"));
      expect(row).toMatchObject({ status: "pending", lastError: "Flow is not configured (FLOW_API_KEY, FLOW_SECRET_KEY)" });
    });
  });
});
