import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSignedInUser, register, resendCustomerVerification, sendCustomerPasswordReset, setCustomerStatus, signIn } from "@server/accounts/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { complaintSheetPath } from "@server/complaints/index.server";
import { emailPreferencesToken, emailPreferencesUrl } from "@server/consent/index.server";
import { enqueueEmail } from "@server/notifications/index.server";
import { receiptToken } from "@server/orders/index.server";
import { confirmedConsent, revokedConsent } from "../support/promotional-consent";
import {
  anonymiseCustomer,
  anonymiseGuest,
  anonymizedEmailFor,
  anonymizedGuestEmailFor,
  CUSTOMERS_PAGE_SIZE,
  exportCustomerData,
  exportGuestData,
  loadCustomerPicture,
  loadGuestPicture,
  searchCustomers,
} from "@server/customers/index.server";
import {
  abandonedCarts,
  accounts,
  bidonMovements,
  complaints,
  contactMessages,
  deliveries,
  districts,
  invoices,
  orders,
  outboxEmails,
  paymentMethods,
  promotionalConsentEvents,
  providerErasures,
  sessions,
  staffActions,
  subscriptionEvents,
  subscriptions,
  users,
} from "@server/db/schema";
import { DEMO_ADMIN, DEMO_OPERACIONES } from "@server/db/seed/demo-accounts";
import { runDueJobs } from "@server/jobs/index.server";
import { createCulqiClient } from "@server/payments/culqi";
import { startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { expectConsoleError } from "../support/fail-on-console-error";
import { insertComplaint, insertOrder } from "../support/data-subject-records";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const PASSWORD = "Cliente2024";

function requestWith(headers: Headers): Request {
  const cookie = headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  return new Request("http://localhost/dashboard", { headers: { cookie } });
}

describe("customers in the back office (issue 11, /admin/clientes)", () => {
  let test: TestDatabase;
  let admin: StaffActor;
  let operaciones: StaffActor;
  let miraflores = 0;
  let client = 0;
  let invoiceNumber = 900_000;
  const signInAs = (email: string, password = PASSWORD) => signIn(test.db, { email, password, remember: true, client: `customers-${(client += 1)}` });
  const auditRows = (entityId: string, action?: string) =>
    test.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.entityId, entityId), action ? eq(staffActions.action, action) : undefined))
      .orderBy(staffActions.id);

  async function customer(firstName: string, lastName: string, email: string, extra: Partial<typeof users.$inferInsert> = {}): Promise<string> {
    const registered = await register(test.db, { firstName, lastName, email, password: PASSWORD, client: `customers-register-${(client += 1)}` });
    if (!registered.ok) throw new Error(registered.message);
    const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (Object.keys(extra).length) await test.db.update(users).set(extra).where(eq(users.id, row!.id));
    return row!.id;
  }

  const order = (values: Partial<typeof orders.$inferInsert>) => insertOrder(test.db, { districtId: miraflores, ...values });

  async function delivery(orderId: string, status: string, address = "Jr. Las Camelias 742, dpto 3"): Promise<string> {
    const [row] = await test.db
      .insert(deliveries)
      .values({
        orderId,
        districtId: miraflores,
        districtName: "Miraflores",
        address,
        deliveryDate: "2026-03-20",
        deliveryWindow: "manana",
        status,
        notes: "Perro bravo",
      })
      .returning({ id: deliveries.id });
    return row!.id;
  }

  async function invoice(orderId: string, electronicStatus: typeof invoices.$inferInsert.electronicStatus = "accepted"): Promise<string> {
    invoiceNumber += 1;
    const [row] = await test.db
      .insert(invoices)
      .values({
        orderId,
        documentType: "boleta",
        series: "B001",
        number: invoiceNumber,
        invoiceNumber: `B001-${invoiceNumber}`,
        status: "paid",
        totalCents: 5000,
        taxableCents: 4237,
        igvCents: 763,
        customerName: "MARISOL HUAMANÍ TORRES",
        customerDocumentType: "dni",
        customerDocumentNumber: "41234567",
        dueDate: "2026-03-20",
        electronicStatus,
      })
      .returning({ id: invoices.id });
    return row!.id;
  }

  const complaint = (email: string) => insertComplaint(test.db, email);

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const staff = await test.db
      .select()
      .from(users)
      .where(inArray(users.email, [DEMO_ADMIN.email, DEMO_OPERACIONES.email]));
    const adminRow = staff.find((row) => row.email === DEMO_ADMIN.email)!;
    const opsRow = staff.find((row) => row.email === DEMO_OPERACIONES.email)!;
    admin = { id: adminRow.id, email: adminRow.email, role: "admin", clientAddress: "203.0.113.9" };
    operaciones = { id: opsRow.id, email: opsRow.email, role: "operaciones", clientAddress: "203.0.113.10" };
    const [district] = await test.db.select({ id: districts.id }).from(districts).where(eq(districts.name, "Miraflores"));
    miraflores = district!.id;
  });
  afterAll(() => test.close());

  it("finds customers by e-mail beginning, name words, document and phone digits, paginated, and never lists staff", async () => {
    const id = await customer("Teodora", "Ccori Mamani", "teodora.ccori@prueba.pe", { documentNumber: "70011223", phone: "+51 955-111-222" });
    const find = async (q: string) => (await searchCustomers(test.db, q, 1)).rows.map((row) => row.id);
    expect(await find("TEODORA.cc")).toEqual([id]);
    expect(await find("teo mama")).toEqual([id]);
    expect(await find("ccori")).toEqual([id]);
    expect(await find("70011223")).toEqual([id]);
    expect(await find("955111222")).toEqual([id]);
    expect(await find("+51 955 111 222")).toEqual([id]);
    expect(await find("teodora.ccori@otro.pe")).toEqual([]);
    expect(await find("7001122")).toEqual([]);
    expect(await find(DEMO_ADMIN.email)).toEqual([]);
    // A LIKE wildcard typed in the box is a character, not "anything".
    expect(await find("%")).toEqual([]);

    for (let index = 0; index < CUSTOMERS_PAGE_SIZE + 2; index += 1)
      await test.db.insert(users).values({
        id: `pagina-${index}`,
        name: "Paginado Prueba",
        email: `paginado-${String(index).padStart(2, "0")}@prueba.pe`,
        firstName: "Paginado",
        lastName: `Prueba ${String(index).padStart(2, "0")}`,
      });
    const first = await searchCustomers(test.db, "paginado", 1);
    const second = await searchCustomers(test.db, "paginado", 2);
    expect(first.total).toBe(CUSTOMERS_PAGE_SIZE + 2);
    expect(first.rows).toHaveLength(CUSTOMERS_PAGE_SIZE);
    expect(second.rows.map((row) => row.email)).toEqual([`paginado-${CUSTOMERS_PAGE_SIZE}@prueba.pe`, `paginado-${CUSTOMERS_PAGE_SIZE + 1}@prueba.pe`]);
  });

  it("shows a customer's whole picture, guest orders with the same e-mail included", async () => {
    const email = "picture@prueba.pe";
    const id = await customer("Pía", "Rojas", email);
    const own = await order({ userId: id, customerEmail: email });
    const guest = await order({ userId: null, customerEmail: "Picture@Prueba.pe", status: "paid" });
    const someoneElse = await order({ userId: null, customerEmail: "otra@prueba.pe" });
    await invoice(own);
    const handed = await delivery(own, "delivered");
    await test.db.insert(bidonMovements).values({ deliveryId: handed, orderId: own, userId: id, customerEmail: email, kind: "lent", quantity: 3 });
    await test.db.insert(subscriptions).values({
      userId: id,
      status: "active",
      frequency: "mensual",
      discountRateBasisPoints: 500,
      baseAmountCents: 6000,
      amountCents: 5700,
      districtId: miraflores,
      districtName: "Miraflores",
      address: "Jr. Las Camelias 742",
      deliveryWindow: "manana",
    });
    await complaint(email);
    await confirmedConsent(test.db, email, new Date(), { source: "preferences", clientAddress: "198.51.100.4", userAgent: "Firefox" });

    const picture = (await loadCustomerPicture(test.db, id))!;
    expect(picture.profile).toMatchObject({ email, firstName: "Pía", status: "active", emailVerified: false });
    expect(picture.orders.map((row) => [row.id, row.guest]).sort()).toEqual(
      [
        [own, false],
        [guest, true],
      ].sort(),
    );
    expect(picture.orders.map((row) => row.id)).not.toContain(someoneElse);
    expect(picture.ordersTotal).toBe(2);
    expect(picture.invoices.map((row) => row.orderId)).toEqual([own]);
    expect(picture.subscriptions).toHaveLength(1);
    expect(picture.bidones).toEqual({ lent: 3, returned: 0, balance: 3 });
    // The sign-up's verification e-mail is in the outbox, addressed to them.
    expect(picture.emails.map((row) => row.kind)).toContain("email_verification");
    expect(picture.complaints).toHaveLength(1);
    expect(picture.consent).toMatchObject({ granted: true, source: "preferences" });

    expect(await loadCustomerPicture(test.db, "no-such-customer")).toBeNull();
    expect(await loadCustomerPicture(test.db, admin.id)).toBeNull();
  });

  it("resends the verification e-mail and sends a reset link through better-auth, each audited, once a minute", async () => {
    const email = "acceso@prueba.pe";
    const id = await customer("Ángel", "Soto", email);
    const outbox = (kind: string) =>
      test.db
        .select()
        .from(outboxEmails)
        .where(and(eq(outboxEmails.toAddress, email), eq(outboxEmails.kind, kind)));
    // The sign-up's e-mail never arrived (lost in spam, say): a token made within the same second
    // would be the same link, so it is removed here to see the resend queue its own.
    expect(await outbox("email_verification")).toHaveLength(1);
    await test.db.delete(outboxEmails).where(and(eq(outboxEmails.toAddress, email), eq(outboxEmails.kind, "email_verification")));

    expect(await resendCustomerVerification(test.db, operaciones, id)).toMatchObject({ ok: true });
    const [resent] = await outbox("email_verification");
    expect(resent!.text).toMatch(/\/verificar-correo\?token=/);
    expect(await resendCustomerVerification(test.db, operaciones, id)).toMatchObject({ ok: false, message: expect.stringContaining("menos de un minuto") });
    expect(await outbox("email_verification")).toHaveLength(1);
    const [verifyAudit] = await auditRows(id, "customer.resend_verification");
    expect(verifyAudit).toMatchObject({ actorEmail: DEMO_OPERACIONES.email, actorRole: "operaciones", entityType: "user" });

    expect(await sendCustomerPasswordReset(test.db, admin, id)).toMatchObject({ ok: true });
    const [reset] = await outbox("password_reset");
    expect(reset!.text).toMatch(/\/reset-password\?token=/);
    expect(await auditRows(id, "customer.send_password_reset")).toHaveLength(1);

    const other = await customer("Verificada", "Ya", "verificada@prueba.pe", { emailVerified: true });
    expect(await resendCustomerVerification(test.db, admin, other)).toMatchObject({ ok: false, message: "El correo de este cliente ya está verificado." });
    expect(await auditRows(other)).toEqual([]);
    expect(await resendCustomerVerification(test.db, admin, operaciones.id)).toMatchObject({ ok: false, message: expect.stringContaining("Equipo") });
    expect(await sendCustomerPasswordReset(test.db, admin, "no-such-customer")).toMatchObject({ ok: false, reason: "not_found" });
  });

  it("deactivating ends the customer's sessions and refuses sign-in, leaves orders and subscriptions alone; reactivating lets them back", async () => {
    const email = "baja.cliente@prueba.pe";
    const id = await customer("Baja", "Cliente", email);
    const own = await order({ userId: id, customerEmail: email, status: "paid" });
    const signedIn = await signInAs(email);
    const request = requestWith((signedIn as { headers: Headers }).headers);
    expect(await getSignedInUser(test.db, request)).not.toBeNull();

    expect(await setCustomerStatus(test.db, operaciones, { userId: id, status: "inactive" })).toMatchObject({ ok: true, changed: true });
    expect(await getSignedInUser(test.db, request)).toBeNull();
    expect(await test.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    expect(await signInAs(email)).toMatchObject({ ok: false, message: expect.stringContaining("desactivada") });
    expect((await test.db.select({ status: orders.status }).from(orders).where(eq(orders.id, own)))[0]!.status).toBe("paid");
    expect(await setCustomerStatus(test.db, operaciones, { userId: id, status: "inactive" })).toMatchObject({ ok: true, changed: false });
    expect(await sendCustomerPasswordReset(test.db, admin, id)).toMatchObject({ ok: false, message: expect.stringContaining("desactivada") });

    expect(await setCustomerStatus(test.db, operaciones, { userId: id, status: "active" })).toMatchObject({ ok: true, changed: true });
    expect(await signInAs(email)).toMatchObject({ ok: true });
    expect((await auditRows(id)).map((row) => [row.action, row.before, row.after])).toEqual([
      ["customer.deactivate", { status: "active" }, { status: "inactive" }],
      ["customer.reactivate", { status: "inactive" }, { status: "active" }],
    ]);
    expect(await setCustomerStatus(test.db, admin, { userId: admin.id, status: "inactive" })).toMatchObject({ ok: false });
  });

  it("exports everything held about the customer as one document, without secrets, audited", async () => {
    const email = "export@prueba.pe";
    const id = await customer("Exequiel", "Portal", email, { documentNumber: "40999888", phone: "912345678" });
    const own = await order({ userId: id, customerEmail: email });
    const guest = await order({ userId: null, customerEmail: email });
    await invoice(own);
    await delivery(own, "delivered");
    await complaint(email);
    await confirmedConsent(test.db, email, new Date(), { clientAddress: "198.51.100.7", userAgent: "Chrome" });
    await test.db
      .insert(contactMessages)
      .values({ submissionId: randomUUID(), name: "Exequiel", email, subject: "Consulta", message: "¿Reparten en Surco?", createdAt: new Date() });
    await signInAs(email);

    const document = (await exportCustomerData(test.db, admin, id, new Date("2026-03-25T12:00:00Z")))!;
    const json = JSON.stringify(document);
    expect(document.profile).toMatchObject({ email, documentNumber: "40999888", phone: "912345678" });
    expect(document.orders.map((row) => row.id).sort()).toEqual([own, guest].sort());
    expect(document.orders.find((row) => row.id === own)!.deliveries).toHaveLength(1);
    expect(document.invoices).toHaveLength(1);
    expect(document.complaints).toHaveLength(1);
    expect(document.promotionalConsent[0]).toMatchObject({ granted: true, clientAddress: "198.51.100.7", userAgent: "Chrome" });
    expect(document.contactMessages).toHaveLength(1);
    expect(document.emails.map((row) => row.kind)).toContain("email_verification");
    // No secrets: session tokens, password hashes, access-link hashes.
    const open = await test.db.select({ token: sessions.token }).from(sessions).where(eq(sessions.userId, id));
    expect(document.sessions).toHaveLength(open.length);
    expect(open.length).toBeGreaterThan(0);
    const [credential] = await test.db.select({ password: accounts.password }).from(accounts).where(eq(accounts.userId, id));
    for (const session of open) expect(json).not.toContain(session.token);
    expect(json).not.toContain(credential!.password!);
    expect(json).not.toContain("accessTokenHash");
    const [audit] = await auditRows(id, "customer.export");
    expect(audit).toMatchObject({ actorEmail: DEMO_ADMIN.email, after: { orders: 2, invoices: 1, complaints: 1 } });
    expect(await exportCustomerData(test.db, admin, "no-such-customer", new Date())).toBeNull();
  });

  // Issue 24, defect 8 (decision 0071): the export carried the e-mails' live links (a reset link opens the account).
  it("exports the e-mails sent without what opens their links: verification, reset, receipt, payment, unsubscribe, cart, complaint sheet", async () => {
    const email = "enlaces@prueba.pe";
    const id = await customer("Lidia", "Enlaces", email);
    expect(await sendCustomerPasswordReset(test.db, admin, id)).toMatchObject({ ok: true });
    const own = await order({ userId: id, customerEmail: email });
    const guest = await order({ userId: null, customerEmail: email });
    const site = "http://shop.test";
    const paymentId = randomUUID();
    const cartToken = randomBytes(24).toString("base64url");
    const sheetToken = randomBytes(32).toString("base64url");
    const links = [
      `${site}/orden/${own}?token=${receiptToken(own)}`,
      `${site}/orden/${guest}?token=${receiptToken(guest)}#detalle`,
      `${site}/pago/sandbox/${paymentId}`,
      emailPreferencesUrl(email, site),
      `${site}/resume-cart?token=${cartToken}`,
      `${site}${complaintSheetPath(sheetToken)}`,
    ];
    const text = `Tus enlaces: ${links.join("\n")}.`;
    await enqueueEmail(test.db, { dedupeKey: `enlaces:${id}`, kind: "order-confirmation", to: email, subject: "Enlaces", html: "<p>.</p>", text }, new Date());
    const sent = await test.db.select({ kind: outboxEmails.kind, text: outboxEmails.text }).from(outboxEmails).where(eq(outboxEmails.toAddress, email));
    const accountTokens = sent.flatMap((row) => [...row.text.matchAll(/\?token=([^\s&]+)/g)].map((match) => decodeURIComponent(match[1]!)));
    expect(sent.map((row) => row.kind).sort()).toEqual(["email_verification", "order-confirmation", "password_reset"]);
    const secrets = [...accountTokens, receiptToken(own), receiptToken(guest), paymentId, emailPreferencesToken(email), cartToken, sheetToken];
    expect(secrets.length).toBeGreaterThanOrEqual(9);

    const document = (await exportCustomerData(test.db, admin, id, new Date("2026-03-25T12:00:00Z")))!;
    const json = JSON.stringify(document);
    for (const secret of secrets) expect(json).not.toContain(secret);
    expect(document.emails.find((row) => row.subject === "Enlaces")!.text).toBe(
      [
        `Tus enlaces: ${site}/orden/[oculto]?token=[oculto]`,
        `${site}/orden/[oculto]?token=[oculto]#[oculto]`,
        `${site}/pago/sandbox/[oculto]`,
        `${site}/preferencias-de-correo?token=[oculto]`,
        `${site}/resume-cart?token=[oculto]`,
        `${site}/libro-de-reclamaciones/hoja/[oculto].`,
      ].join("\n"),
    );
    expect(document.emails.find((row) => row.kind === "email_verification")!.text).toContain("/verificar-correo?token=[oculto]");
    expect(document.emails.find((row) => row.kind === "password_reset")!.text).toContain("/reset-password?token=[oculto]");
  });

  it("refuses to anonymise while a delivery is open or an order unpaid, in Spanish, changing nothing", async () => {
    const email = "pendiente@prueba.pe";
    const id = await customer("Pendiente", "Entrega", email);
    const own = await order({ userId: id, customerEmail: email, status: "processing" });
    const open = await delivery(own, "scheduled");
    const refused = await anonymiseCustomer(test.db, admin, id, new Date());
    expect(refused).toMatchObject({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(/^No se puede anonimizar todavía: el cliente tiene entregas pendientes \(ENV-/),
    });
    expect((await test.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email).toBe(email);
    expect(await auditRows(id)).toEqual([]);

    await test.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.id, open));
    await order({ userId: null, customerEmail: email, status: "pending" });
    expect(await anonymiseCustomer(test.db, admin, id, new Date())).toMatchObject({ ok: false, message: expect.stringContaining("pedidos sin pagar") });
  });

  it("anonymises: personal data gone from every table it claims, invoices and complaint sheets intact, subscriptions cancelled, sessions revoked, repeat-safe", async () => {
    const email = "borrar@prueba.pe";
    const id = await customer("Borrarina", "Olvido Quispe", email, {
      documentType: "dni",
      documentNumber: "48887776",
      phone: "944555666",
      address: "Calle Secreta 9",
    });
    const own = await order({
      userId: id,
      customerEmail: email,
      customerFirstName: "Borrarina",
      customerPhone: "944555666",
      documentNumber: "48887776",
      address: "Calle Secreta 9",
    });
    const guest = await order({ userId: null, customerEmail: email, customerFirstName: "Borrarina", documentNumber: "48887776", address: "Calle Secreta 9" });
    const invoiceId = await invoice(own);
    const handed = await delivery(own, "delivered", "Calle Secreta 9");
    await test.db.insert(bidonMovements).values({ deliveryId: handed, orderId: own, userId: id, customerEmail: email, kind: "lent", quantity: 2 });
    const [subscription] = await test.db
      .insert(subscriptions)
      .values({
        userId: id,
        status: "active",
        frequency: "mensual",
        discountRateBasisPoints: 500,
        baseAmountCents: 6000,
        amountCents: 5700,
        districtId: miraflores,
        districtName: "Miraflores",
        address: "Calle Secreta 9",
        deliveryWindow: "manana",
      })
      .returning({ id: subscriptions.id });
    const sheet = await complaint(email);
    await confirmedConsent(test.db, email, new Date(), { source: "signup", clientAddress: "198.51.100.9", userAgent: "Safari", userId: id });
    await test.db.insert(contactMessages).values({
      submissionId: randomUUID(),
      name: "Borrarina",
      email,
      phone: "944555666",
      subject: "Hola",
      message: "Vivo en Calle Secreta 9",
      createdAt: new Date(),
    });
    const signedIn = await signInAs(email);
    const request = requestWith((signedIn as { headers: Headers }).headers);
    const invoiceBefore = await test.db.select().from(invoices).where(eq(invoices.id, invoiceId));
    const complaintBefore = await test.db.select().from(complaints).where(eq(complaints.id, sheet));

    const done = await anonymiseCustomer(test.db, admin, id, new Date("2026-03-26T15:00:00Z"));
    expect(done).toEqual({ ok: true, alreadyAnonymized: false, cancelledSubscriptions: 1 });

    const placeholder = anonymizedEmailFor(id);
    const [account] = await test.db.select().from(users).where(eq(users.id, id));
    expect(account).toMatchObject({
      email: placeholder,
      firstName: "Cliente",
      lastName: "anonimizado",
      phone: null,
      address: null,
      documentNumber: null,
      status: "anonymized",
    });
    expect(await getSignedInUser(test.db, request)).toBeNull();
    expect(await test.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    expect(await test.db.select().from(accounts).where(eq(accounts.userId, id))).toEqual([]);
    expect(await signInAs(email)).toMatchObject({ ok: false });

    // The personal data typed above appears in none of the tables the anonymisation covers.
    const personal = ["borrar@prueba.pe", "Borrarina", "944555666", "48887776", "Calle Secreta", "198.51.100.9", "Safari"];
    for (const table of [
      "users",
      "orders",
      "deliveries",
      "subscriptions",
      "outbox_emails",
      "promotional_consent_events",
      "contact_messages",
      "bidon_movements",
      "sessions",
    ]) {
      const rows = await test.db.execute(sql.raw(`select t::text as row from ${table} t`));
      const text = JSON.stringify((rows as unknown as { rows?: unknown[] }).rows ?? rows);
      for (const value of personal) expect(text.includes(value), `${value} left in ${table}`).toBe(false);
    }
    const [orderRow] = await test.db.select().from(orders).where(eq(orders.id, guest));
    expect(orderRow).toMatchObject({ customerEmail: placeholder, totalCents: 5000, status: "delivered" });
    // Kept: the comprobante exactly as issued, and the Libro de Reclamaciones sheet.
    expect(await test.db.select().from(invoices).where(eq(invoices.id, invoiceId))).toEqual(invoiceBefore);
    expect(invoiceBefore[0]!.customerDocumentNumber).toBe("41234567");
    expect(await test.db.select().from(complaints).where(eq(complaints.id, sheet))).toEqual(complaintBefore);
    const [ledger] = await test.db.select().from(bidonMovements).where(eq(bidonMovements.deliveryId, handed));
    expect(ledger).toMatchObject({ quantity: 2, customerEmail: placeholder });
    const [ended] = await test.db.select().from(subscriptions).where(eq(subscriptions.id, subscription!.id));
    expect(ended).toMatchObject({ status: "cancelled", endsOn: "2026-03-26" });
    const events = await test.db.select().from(subscriptionEvents).where(eq(subscriptionEvents.subscriptionId, subscription!.id));
    expect(events.map((event) => [event.kind, event.actor])).toEqual([["cancelled", DEMO_ADMIN.email]]);
    const [consent] = await test.db
      .select()
      .from(promotionalConsentEvents)
      .where(eq(promotionalConsentEvents.email, placeholder))
      .orderBy(promotionalConsentEvents.id);
    expect(consent).toMatchObject({ granted: true, source: "signup", clientAddress: null, userAgent: null, userId: null });
    expect((await test.db.select({ status: outboxEmails.status }).from(outboxEmails).where(eq(outboxEmails.toAddress, placeholder))).length).toBeGreaterThan(0);
    expect((await searchCustomers(test.db, email, 1)).rows).toEqual([]);

    const audit = await auditRows(id, "customer.anonymize");
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0])).not.toContain("borrar@");
    expect(await anonymiseCustomer(test.db, admin, id, new Date())).toEqual({ ok: true, alreadyAnonymized: true, cancelledSubscriptions: 0 });
    expect(await auditRows(id, "customer.anonymize")).toHaveLength(1);
    expect(await setCustomerStatus(test.db, admin, { userId: id, status: "active" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("anonimizado"),
    });
  });

  it("refuses to anonymise while a comprobante has not reached SUNAT", async () => {
    const email = "sunat@prueba.pe";
    const id = await customer("Sunat", "Pendiente", email);
    const own = await order({ userId: id, customerEmail: email });
    await invoice(own, "pending");
    expect(await anonymiseCustomer(test.db, admin, id, new Date())).toMatchObject({
      ok: false,
      message: expect.stringContaining("comprobantes aún no aceptados por SUNAT (B001-"),
    });
  });

  describe("guest buyers without an account (decision 0061)", () => {
    async function guestData(email: string, personal: { firstName: string; phone: string; document: string; address: string }) {
      const older = await order({
        userId: null,
        customerEmail: email.toUpperCase(),
        customerFirstName: personal.firstName,
        customerLastName: "Tello Rivas",
        customerPhone: personal.phone,
        documentNumber: personal.document,
        address: personal.address,
        createdAt: new Date("2026-03-01T15:00:00Z"),
      });
      const latest = await order({
        userId: null,
        customerEmail: email,
        customerFirstName: personal.firstName,
        customerLastName: "Tello Rivas",
        customerPhone: personal.phone,
        documentNumber: personal.document,
        address: personal.address,
        createdAt: new Date("2026-03-10T15:00:00Z"),
      });
      const invoiceId = await invoice(older);
      const handed = await delivery(older, "delivered", personal.address);
      await test.db.insert(bidonMovements).values({ deliveryId: handed, orderId: older, userId: null, customerEmail: email, kind: "lent", quantity: 2 });
      await test.db.insert(outboxEmails).values({
        dedupeKey: `guest-test:${randomUUID()}`,
        kind: "order-confirmation",
        toAddress: email,
        subject: `Tu pedido, ${personal.firstName}`,
        html: `<p>${personal.address}</p>`,
        text: personal.address,
      });
      const sheet = await complaint(email);
      await confirmedConsent(test.db, email, new Date(), { clientAddress: "198.51.100.77", userAgent: "Opera" });
      await revokedConsent(test.db, email, new Date(), { clientAddress: "198.51.100.78", userAgent: "Opera" });
      await test.db.insert(contactMessages).values({
        submissionId: randomUUID(),
        name: personal.firstName,
        email,
        phone: personal.phone,
        subject: "Consulta",
        message: `Vivo en ${personal.address}`,
        createdAt: new Date(),
      });
      await test.db.insert(abandonedCarts).values({ email, items: [{ productId: 1, variantId: null, quantity: 2 }], subtotalCents: 3000 });
      return { older, latest, invoiceId, handed, sheet };
    }

    it("search finds a guest once per e-mail, by e-mail, name, phone and document, and leaves them to the account that has the e-mail", async () => {
      const email = "guillermina.tello@prueba.pe";
      const { latest } = await guestData(email, { firstName: "Guillermina", phone: "+51 966 777 888", document: "47770001", address: "Av. Busqueda 1" });
      const guestRows = async (q: string) => (await searchCustomers(test.db, q, 1)).rows.filter((row) => row.kind === "guest");
      for (const q of ["GUILLERMINA.tel", "guillermina tello", "966777888", "47770001"])
        expect(await guestRows(q), q).toEqual([
          expect.objectContaining({ id: latest, email, fullName: "Guillermina Tello Rivas", kind: "guest", status: "guest" }),
        ]);
      // An empty box lists accounts only, as before.
      expect((await searchCustomers(test.db, "", 1)).rows.some((row) => row.kind !== "account")).toBe(false);

      const accountEmail = "con.cuenta@prueba.pe";
      const accountId = await customer("Con", "Cuenta", accountEmail);
      const guestOrder = await order({ userId: null, customerEmail: "Con.Cuenta@prueba.pe" });
      expect((await searchCustomers(test.db, accountEmail, 1)).rows.map((row) => [row.id, row.kind])).toEqual([[accountId, "account"]]);
      expect(await loadGuestPicture(test.db, guestOrder)).toEqual({ kind: "account", userId: accountId });
      expect(await anonymiseGuest(test.db, admin, guestOrder, new Date())).toEqual({ ok: false, reason: "account", userId: accountId });
      expect(await loadGuestPicture(test.db, randomUUID())).toBeNull();
    });

    it("shows a guest's whole picture from the e-mail on their orders, whatever its case", async () => {
      const email = "retrato.invitado@prueba.pe";
      const { older, latest, handed } = await guestData(email, { firstName: "Gertrudis", phone: "955000111", document: "47770002", address: "Jr. Retrato 5" });
      const someoneElse = await order({ userId: null, customerEmail: "otro.invitado@prueba.pe" });
      const found = await loadGuestPicture(test.db, older);
      if (found?.kind !== "guest") throw new Error("not a guest");
      const picture = found.value;
      expect(picture.guest).toMatchObject({
        reference: older,
        email,
        firstName: "Gertrudis",
        phone: "955000111",
        documentNumber: "47770002",
        anonymized: false,
      });
      expect(picture.orders.map((row) => row.id).sort()).toEqual([older, latest].sort());
      expect(picture.orders.map((row) => row.id)).not.toContain(someoneElse);
      expect(picture.deliveries.map((row) => row.id)).toEqual([handed]);
      expect(picture.invoices.map((row) => row.orderId)).toEqual([older]);
      expect(picture.bidones).toEqual({ lent: 2, returned: 0, balance: 2 });
      expect(picture.emails.map((row) => row.kind)).toEqual(["order-confirmation"]);
      expect(picture.complaints).toHaveLength(1);
      expect(picture.consent).toMatchObject({ granted: false, source: "unsubscribe" });
      expect(picture.consentHistory.map((event) => event.granted)).toEqual([false, true]);
      expect(picture.contactMessages).toHaveLength(1);
      expect(picture.abandonedCart).toMatchObject({ subtotalCents: 3000, items: 1 });
    });

    it("exports a guest's data in the account export's format, without secrets, audited without the e-mail", async () => {
      const email = "exporta.invitado@prueba.pe";
      const { older, latest } = await guestData(email, { firstName: "Eudocia", phone: "955000222", document: "47770003", address: "Jr. Exporta 7" });
      const found = await exportGuestData(test.db, admin, latest, new Date("2026-03-25T12:00:00Z"));
      if (found?.kind !== "guest") throw new Error("not a guest");
      const document = found.value;
      const accountId = await customer("Formato", "Igual", "formato.igual@prueba.pe");
      const accountDocument = (await exportCustomerData(test.db, admin, accountId, new Date()))!;
      expect(Object.keys(document)).toEqual(Object.keys(accountDocument));
      expect(document).toMatchObject({ format: accountDocument.format, sessions: [], subscriptions: [] });
      expect(document.profile).toMatchObject({ kind: "guest", email, firstName: "Eudocia", documentNumber: "47770003" });
      expect(document.orders.map((row) => row.id)).toEqual([older, latest]);
      expect(document.orders[0]!.deliveries).toHaveLength(1);
      expect(document.invoices).toHaveLength(1);
      expect(document.bidones).toMatchObject({ balance: 2 });
      expect(document.emails.map((row) => row.text)).toEqual(["Jr. Exporta 7"]);
      expect(document.complaints).toHaveLength(1);
      expect(document.promotionalConsent.map((event) => event.clientAddress)).toEqual(["198.51.100.78", "198.51.100.77"]);
      expect(document.contactMessages).toHaveLength(1);
      expect(document.abandonedCarts).toEqual([expect.objectContaining({ subtotalCents: 3000 })]);
      const json = JSON.stringify(document);
      expect(json).not.toContain("accessTokenHash");
      expect(json).not.toContain("tokenHash");
      expect(json).not.toContain("checkoutKey");
      const audit = await auditRows(latest, "guest.export");
      expect(audit).toEqual([
        expect.objectContaining({ actorEmail: DEMO_ADMIN.email, entityType: "guest", after: { orders: 2, invoices: 1, emails: 1, complaints: 1 } }),
      ]);
      expect(JSON.stringify(audit)).not.toContain(email);
    });

    it("refuses to anonymise a guest while a delivery is open or an order unpaid, changing nothing", async () => {
      const email = "abierta.invitado@prueba.pe";
      const own = await order({ userId: null, customerEmail: email, status: "processing" });
      const open = await delivery(own, "scheduled");
      expect(await anonymiseGuest(test.db, admin, own, new Date())).toMatchObject({
        ok: false,
        reason: "refused",
        message: expect.stringMatching(/^No se puede anonimizar todavía: el cliente tiene entregas pendientes \(ENV-/),
      });
      expect((await test.db.select({ email: orders.customerEmail }).from(orders).where(eq(orders.id, own)))[0]!.email).toBe(email);
      expect(await auditRows(own)).toEqual([]);
      await test.db.update(deliveries).set({ status: "delivered" }).where(eq(deliveries.id, open));
      await order({ userId: null, customerEmail: email, status: "pending" });
      expect(await anonymiseGuest(test.db, admin, own, new Date())).toMatchObject({ ok: false, message: expect.stringContaining("pedidos sin pagar") });
    });

    it("anonymises a guest: personal data gone, invoices and complaint sheets intact, other buyers untouched, run twice changes nothing", async () => {
      const email = "borrar.invitado@prueba.pe";
      const personal = { firstName: "Hermenegilda", phone: "933222111", document: "47770004", address: "Calle Oculta 13" };
      const { older, latest, invoiceId, handed, sheet } = await guestData(email, personal);
      const neighbour = await order({ userId: null, customerEmail: "vecina@prueba.pe", address: "Calle Oculta 15" });
      const invoiceBefore = await test.db.select().from(invoices).where(eq(invoices.id, invoiceId));
      const complaintBefore = await test.db.select().from(complaints).where(eq(complaints.id, sheet));

      expect(await anonymiseGuest(test.db, admin, latest, new Date("2026-03-26T15:00:00Z"))).toEqual({ ok: true, alreadyAnonymized: false });

      const placeholder = anonymizedGuestEmailFor(latest);
      const values = [email, personal.firstName, personal.phone, personal.document, personal.address];
      for (const table of ["orders", "deliveries", "outbox_emails", "promotional_consent_events", "contact_messages", "bidon_movements", "abandoned_carts"]) {
        const rows = await test.db.execute(sql.raw(`select t::text as row from ${table} t`));
        const text = JSON.stringify((rows as unknown as { rows?: unknown[] }).rows ?? rows);
        for (const value of values) expect(text.includes(value), `${value} left in ${table}`).toBe(false);
      }
      const [orderRow] = await test.db.select().from(orders).where(eq(orders.id, older));
      expect(orderRow).toMatchObject({ customerEmail: placeholder, customerFirstName: "Cliente", totalCents: 5000, status: "delivered" });
      const [ledger] = await test.db.select().from(bidonMovements).where(eq(bidonMovements.deliveryId, handed));
      expect(ledger).toMatchObject({ quantity: 2, customerEmail: placeholder });
      const consent = await test.db
        .select()
        .from(promotionalConsentEvents)
        .where(eq(promotionalConsentEvents.email, placeholder))
        .orderBy(promotionalConsentEvents.id);
      expect(consent.map((event) => [event.granted, event.clientAddress, event.userAgent])).toEqual([
        [true, null, null],
        [false, null, null],
      ]);
      expect(await test.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, placeholder))).toHaveLength(1);
      // Kept: the comprobante exactly as issued, the Libro de Reclamaciones sheet, the neighbour's order.
      expect(await test.db.select().from(invoices).where(eq(invoices.id, invoiceId))).toEqual(invoiceBefore);
      expect(await test.db.select().from(complaints).where(eq(complaints.id, sheet))).toEqual(complaintBefore);
      expect((await test.db.select({ address: orders.address }).from(orders).where(eq(orders.id, neighbour)))[0]!.address).toBe("Calle Oculta 15");
      expect((await searchCustomers(test.db, email, 1)).rows).toEqual([]);
      const after = await loadGuestPicture(test.db, older);
      expect(after).toMatchObject({ kind: "guest", value: { guest: { anonymized: true, email: placeholder } } });

      const audit = await auditRows(latest, "guest.anonymize");
      expect(audit).toEqual([expect.objectContaining({ entityType: "guest", after: { status: "anonymized", orders: 2 } })]);
      expect(JSON.stringify(audit)).not.toContain(email);
      // A second request, through either order, and a double click find it done.
      const snapshot = await test.db.select().from(orders).where(eq(orders.id, older));
      expect(await anonymiseGuest(test.db, admin, latest, new Date())).toEqual({ ok: true, alreadyAnonymized: true });
      expect(await anonymiseGuest(test.db, admin, older, new Date())).toEqual({ ok: true, alreadyAnonymized: true });
      expect(await test.db.select().from(orders).where(eq(orders.id, older))).toEqual(snapshot);
      expect(await auditRows(latest, "guest.anonymize")).toHaveLength(1);
      expect(await auditRows(older)).toEqual([]);
    });

    it("two anonymisations of one guest at once: one does it, the other finds it done", async () => {
      const email = "doble.invitado@prueba.pe";
      const { latest } = await guestData(email, { firstName: "Doble", phone: "933222000", document: "47770005", address: "Calle Doble 2" });
      const results = await Promise.all([anonymiseGuest(test.db, admin, latest, new Date()), anonymiseGuest(test.db, admin, latest, new Date())]);
      expect(results.map((result) => result.ok && result.alreadyAnonymized).sort()).toEqual([false, true]);
      expect(await auditRows(latest, "guest.anonymize")).toHaveLength(1);
    });
  });

  describe("saved cards deleted at the payment provider on anonymisation (decision 0061)", () => {
    let culqi: CulqiMock;
    beforeAll(async () => {
      culqi = await startCulqiMock();
    });
    afterAll(() => culqi.close());

    it("schedules the deletions in the anonymisation, deletes at Culqi outside it, and retries after a failure until Culqi confirms", async () => {
      const client = createCulqiClient({ secretKey: culqi.secretKey, apiBase: culqi.apiBase, timeoutMs: 5_000 });
      const email = "tarjetas@prueba.pe";
      const id = await customer("Tarjeta", "Guardada", email);
      const culqiCustomer = await client.createCustomer({
        first_name: "Tarjeta",
        last_name: "Guardada",
        email,
        address: "Av. Culqi 1",
        address_city: "Lima",
        phone_number: "999888777",
      });
      const saved = await client.createCard({ customerId: culqiCustomer!.id, tokenId: await culqi.tokenize("4111111111111111", email) });
      if (saved.kind !== "saved") throw new Error("card not saved");
      await test.db.insert(paymentMethods).values([
        { userId: id, provider: "culqi", providerCustomerId: culqiCustomer!.id, providerCardId: saved.card.id, brand: "Visa", last4: "1111" },
        { userId: id, provider: "sandbox", providerCardId: `sbx_crd_${randomUUID()}_4242`, brand: "Visa", last4: "4242", revokedAt: new Date() },
      ]);
      const now = new Date("2026-03-27T15:00:00Z");
      const erasures = () =>
        test.db.select().from(providerErasures).where(eq(providerErasures.userId, id)).orderBy(providerErasures.objectKind, providerErasures.provider);

      expect(await anonymiseCustomer(test.db, admin, id, now)).toMatchObject({ ok: true, alreadyAnonymized: false });
      // Nothing was asked of Culqi inside the transaction: the deletions wait, recorded with it.
      expect(culqi.cardIds()).toContain(saved.card.id);
      expect((await erasures()).map((row) => [row.provider, row.objectKind, row.status])).toEqual([
        ["culqi", "card", "pending"],
        ["sandbox", "card", "pending"],
        ["culqi", "customer", "pending"],
      ]);
      expect((await auditRows(id, "customer.anonymize"))[0]!.after).toMatchObject({ cardErasures: 3 });

      culqi.failNextDeletes(1);
      expectConsoleError(/deleting culqi card .* failed \(attempt 1: HTTP 503\)/);
      const first = await runDueJobs(test.db, { now, only: ["providerErasures"], culqi: client });
      expect(first.results.providerErasures).toEqual({ done: 2, failed: 1 });
      const [card] = await erasures();
      expect(card).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 503", nextAttemptAt: new Date(now.getTime() + 5 * 60_000) });
      expect(culqi.customerIds()).not.toContain(culqiCustomer!.id);
      expect((await loadCustomerPicture(test.db, id))!.cardErasures).toEqual({ done: 2, pending: 1, lastError: "HTTP 503" });

      // Not due yet: nothing is asked; once due, Culqi answers it no longer has the card (gone with its customer): done.
      expect((await runDueJobs(test.db, { now, only: ["providerErasures"], culqi: client })).results.providerErasures).toEqual({ done: 0, failed: 0 });
      const later = new Date(now.getTime() + 6 * 60_000);
      expect((await runDueJobs(test.db, { now: later, only: ["providerErasures"], culqi: client })).results.providerErasures).toEqual({ done: 1, failed: 0 });
      expect((await erasures()).map((row) => [row.status, row.attempts])).toEqual([
        ["done", 2],
        ["done", 1],
        ["done", 1],
      ]);
      expect(culqi.cardIds()).not.toContain(saved.card.id);
      expect(culqi.requestLog.filter((line) => line.startsWith("DELETE"))).toEqual([
        `DELETE /v2/cards/${saved.card.id}`,
        `DELETE /v2/customers/${culqiCustomer!.id}`,
        `DELETE /v2/cards/${saved.card.id}`,
      ]);
      // Run again, the anonymisation schedules nothing twice.
      expect(await anonymiseCustomer(test.db, admin, id, later)).toMatchObject({ ok: true, alreadyAnonymized: true });
      expect(await erasures()).toHaveLength(3);
    });
  });
});
