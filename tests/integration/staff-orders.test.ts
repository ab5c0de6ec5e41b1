import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { districts, invoices, orderNotes, orders, outboxEmails, payments, refunds, staffActions, users } from "@server/db/schema";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-accounts";
import {
  addOrderNote,
  findStaffOrder,
  resendOrderConfirmation,
  searchStaffOrders,
  StaffOrderNotFoundError,
  staffOrdersCsvStream,
  type StaffOrderRow,
} from "@server/orders/index.server";
import type { StaffActor } from "@server/audit/index.server";
import type { StaffOrderFilters } from "@core/staff-order-filters";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const SITE_URL = "http://tienda.test";

describe("the staff order list, its CSV export and an order's notes and confirmation (issue 10)", () => {
  let test: TestDatabase;
  let staff: StaffActor & { name: string };
  const ids: Record<"ana" | "bruno" | "carla" | "dani" | "eva", string> = { ana: "", bruno: "", carla: "", dani: "", eva: "" };
  let anaNumber = "";
  let miraflores = 0;
  let sanIsidro = 0;

  async function insertOrder(values: Omit<Partial<typeof orders.$inferInsert>, "createdAt"> & { createdAt: Date | SQL }): Promise<string> {
    const [row] = await test.db
      .insert(orders)
      .values({
        status: "paid",
        orderType: "one-time",
        customerFirstName: "Zoila",
        customerLastName: "Prueba",
        customerEmail: "zoila@prueba.pe",
        customerPhone: "900000000",
        documentType: "dni",
        documentNumber: "10000000",
        districtId: miraflores,
        districtName: "Miraflores",
        address: "Calle Uno 1",
        deliveryDate: "2026-03-20",
        deliveryWindow: "manana",
        subtotalCents: 5000,
        discountCents: 0,
        totalCents: 5000,
        paymentProvider: "sandbox",
        paymentMethod: "card",
        ...values,
      } as typeof orders.$inferInsert)
      .returning({ id: orders.id });
    return row!.id;
  }

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [member] = await test.db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    staff = { id: member!.id, email: member!.email, role: "operaciones", clientAddress: "127.0.0.1", name: `${member!.firstName} ${member!.lastName}` };
    const named = await test.db
      .select({ id: districts.id, name: districts.name })
      .from(districts)
      .where(inArray(districts.name, ["Miraflores", "San Isidro"]));
    miraflores = named.find((row) => row.name === "Miraflores")!.id;
    sanIsidro = named.find((row) => row.name === "San Isidro")!.id;

    ids.ana = await insertOrder({
      customerFirstName: "Ana María",
      customerLastName: "Quispe Huamán",
      customerEmail: "ana.quispe@correo.pe",
      customerPhone: "+51 987 111 222",
      documentNumber: "44556677",
      createdAt: new Date("2026-03-10T15:00:00Z"),
    });
    // 23:30 on the 10th in Lima, already the 11th by the UTC clock.
    ids.bruno = await insertOrder({
      status: "delivered",
      orderType: "subscription",
      subscriptionFrequency: "mensual",
      customerFirstName: "Bruno",
      customerLastName: "Díaz",
      customerEmail: "bruno@empresa.pe",
      customerPhone: "912 000 111",
      documentType: "ce",
      documentNumber: "CE001234",
      ruc: "20123456789",
      businessName: 'Empresa, "Comillas" S.A.C.',
      districtId: sanIsidro,
      districtName: "San Isidro",
      paymentMethod: "yape",
      createdAt: new Date("2026-03-11T04:30:00Z"),
    });
    // Two orders at the same instant, and one half a millisecond later: the export's keyset must
    // neither skip nor repeat them (PostgreSQL keeps microseconds, a JavaScript Date does not).
    ids.carla = await insertOrder({
      status: "cancelled",
      customerFirstName: "=cmd|' /C calc'!A0",
      customerLastName: "+Suma",
      customerEmail: "@carla@correo.pe",
      customerPhone: "-999",
      // Issue 24, defect 7: a spreadsheet splitting on `;` must not find a formula after the semicolon.
      address: "Av. Uno 123\nPiso 2;=1+1",
      paymentMethod: "cash",
      createdAt: new Date("2026-03-12T10:00:00Z"),
    });
    ids.dani = await insertOrder({ customerFirstName: "Dani", customerEmail: "dani@correo.pe", createdAt: new Date("2026-03-12T10:00:00Z") });
    ids.eva = await insertOrder({ customerFirstName: "Eva", customerEmail: "eva@correo.pe", createdAt: sql`'2026-03-12 10:00:00.000500+00'::timestamptz` });
    const [ana] = await test.db.select({ orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, ids.ana));
    anaNumber = ana!.orderNumber;
  });
  afterAll(() => test.close());

  const search = async (filters: StaffOrderFilters, page = 1, pageSize = 100) => searchStaffOrders(test.db, filters, { page, pageSize });
  const idsOf = (rows: StaffOrderRow[]) => rows.map((row) => row.id);

  describe("Buscar", () => {
    it("finds an order by its number, with or without the VA- prefix", async () => {
      expect(idsOf((await search({ q: anaNumber })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: anaNumber.toLowerCase() })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: String(Number(anaNumber.slice(3))) })).rows)).toEqual([ids.ana]);
    });

    it("finds an order by e-mail, whole or its beginning, in any case", async () => {
      expect(idsOf((await search({ q: "ana.quispe@correo.pe" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "ANA.QUI" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "bruno@" })).rows)).toEqual([ids.bruno]);
    });

    it("finds an order by name: whole words in any order, or the beginning of the first or last name", async () => {
      expect(idsOf((await search({ q: "maría quispe" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "Huamán" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "Quis" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "ana qui" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "DÍAZ" })).rows)).toEqual([ids.bruno]);
      expect((await search({ q: "maría díaz" })).total).toBe(0);
    });

    it("finds an order by phone, whatever the spaces and with or without +51", async () => {
      expect(idsOf((await search({ q: "987111222" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "987 111 222" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "+51 912 000 111" })).rows)).toEqual([ids.bruno]);
    });

    it("finds an order by document number or RUC", async () => {
      expect(idsOf((await search({ q: "44556677" })).rows)).toEqual([ids.ana]);
      expect(idsOf((await search({ q: "ce001234" })).rows)).toEqual([ids.bruno]);
      expect(idsOf((await search({ q: "20123456789" })).rows)).toEqual([ids.bruno]);
    });

    it("treats LIKE wildcards in the box as plain characters", async () => {
      expect((await search({ q: "%" })).total).toBe(0);
      expect((await search({ q: "_na.quispe" })).total).toBe(0);
    });
  });

  describe("filters", () => {
    it("status keeps only orders in that status", async () => {
      const { rows, total } = await search({ status: "delivered" });
      expect(rows.every((row) => row.status === "delivered")).toBe(true);
      expect(idsOf(rows)).toContain(ids.bruno);
      expect(idsOf(rows)).not.toContain(ids.ana);
      const [all] = await test.db
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(eq(orders.status, "delivered"));
      expect(total).toBe(all!.n);
    });

    it("dates are Lima calendar days, both ends included", async () => {
      expect(idsOf((await search({ from: "2026-03-10", to: "2026-03-10" })).rows)).toEqual([ids.bruno, ids.ana]);
      expect(idsOf((await search({ from: "2026-03-11", to: "2026-03-12" })).rows).sort()).toEqual([ids.carla, ids.dani, ids.eva].sort());
      expect(idsOf((await search({ from: "2026-03-13" })).rows)).not.toContain(ids.eva);
      expect(idsOf((await search({ to: "2026-03-09" })).rows)).not.toContain(ids.ana);
    });

    it("district, payment method and one-time or subscription each narrow the list", async () => {
      const inMiraflores = await search({ districtId: miraflores, from: "2026-03-01", to: "2026-03-31" });
      expect(idsOf(inMiraflores.rows).sort()).toEqual([ids.ana, ids.carla, ids.dani, ids.eva].sort());
      const byYape = await search({ paymentMethod: "yape" });
      expect(byYape.rows.every((row) => row.paymentMethod === "yape")).toBe(true);
      expect(idsOf(byYape.rows)).toContain(ids.bruno);
      expect(idsOf(byYape.rows)).not.toContain(ids.ana);
      const subscriptions = await search({ orderType: "subscription", from: "2026-03-01", to: "2026-03-31" });
      expect(idsOf(subscriptions.rows)).toEqual([ids.bruno]);
      const cashCancelled = await search({ paymentMethod: "cash", status: "cancelled", from: "2026-03-01", to: "2026-03-31" });
      expect(idsOf(cashCancelled.rows)).toEqual([ids.carla]);
    });

    it("pages newest first and counts every match", async () => {
      const march = { from: "2026-03-10", to: "2026-03-12" };
      const first = await search(march, 1, 3);
      const second = await search(march, 2, 3);
      expect(first.total).toBe(5);
      expect(idsOf(first.rows)).toEqual([ids.eva, ...[ids.carla, ids.dani].sort().reverse()]);
      expect(idsOf(second.rows)).toEqual([ids.bruno, ids.ana]);
      expect(first.rows[0]).toMatchObject({ customerName: "Eva Prueba", customerEmail: "eva@correo.pe", districtName: "Miraflores", totalCents: 5000 });
    });
  });

  describe("CSV export", () => {
    async function exportCsv(filters: StaffOrderFilters, batchSize?: number): Promise<string> {
      return new Response(staffOrdersCsvStream(test.db, filters, batchSize)).text();
    }

    it("starts with a byte order mark and the header, one CRLF line per order, newest first", async () => {
      const bytes = new Uint8Array(await new Response(staffOrdersCsvStream(test.db, { from: "2026-03-10", to: "2026-03-10" })).arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder().decode(bytes.slice(3));
      const lines = text.split("\r\n");
      expect(lines[0]).toBe(
        "Pedido,Fecha (Lima),Estado,Tipo,Nombre,Apellido,E-mail,Teléfono,Tipo de documento,Documento,RUC,Razón social,Distrito,Dirección,Fecha de entrega,Horario,Método de pago,Subtotal (S/),Descuento (S/),Envío (S/),Total (S/)",
      );
      expect(lines).toHaveLength(4); // header, two orders, and the empty string after the last CRLF
      expect(lines[1]).toMatch(
        /^VA-\d{6},2026-03-10 23:30,Entregado,Suscripción,Bruno,Díaz,bruno@empresa.pe,912 000 111,CE,CE001234,20123456789,"Empresa, ""Comillas"" S.A.C.",San Isidro,/,
      );
      expect(lines[1]).toMatch(/,Yape,50\.00,0\.00,0\.00,50\.00$/);
      expect(lines[2]).toMatch(
        new RegExp(`^${anaNumber},2026-03-10 10:00,Pagado,Única,Ana María,Quispe Huamán,ana.quispe@correo.pe,'\\+51 987 111 222,DNI,44556677,`),
      );
    });

    it("quotes line breaks and semicolons and defuses cells a spreadsheet would run as formulas, in every part of a cell", async () => {
      const text = await exportCsv({ q: "@carla@correo.pe" });
      const row = text.split("\r\n").slice(1).join("\r\n");
      expect(row).toContain(`,'=cmd|' /C calc'!A0,'+Suma,'@carla@correo.pe,'-999,`);
      expect(row).toContain(`,"Av. Uno 123\nPiso 2;'=1+1",`);
      expect(row.split(/[;\r\n]/).filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
      expect(row).toContain(",Cancelado,");
    });

    it("reads in batches without skipping or repeating orders that share an instant", async () => {
      const filters = { from: "2026-03-10", to: "2026-03-12" };
      const whole = await exportCsv(filters);
      for (const batchSize of [1, 2, 3]) expect(await exportCsv(filters, batchSize)).toBe(whole);
      expect(whole.split("\r\n").filter(Boolean)).toHaveLength(6);
      const numbers = await test.db
        .select({ id: orders.id, n: orders.orderNumber })
        .from(orders)
        .where(inArray(orders.id, Object.values(ids)));
      for (const { n } of numbers) expect(whole.split(n).length - 1).toBe(1);
    });

    it("exports exactly the rows the list shows for the same filters", async () => {
      const filters: StaffOrderFilters = { paymentMethod: "card" };
      const listed = await search(filters, 1, 1000);
      const exported = (await exportCsv(filters, 7))
        .split("\r\n")
        .slice(1, -1)
        .map((line) => line.split(",")[0]);
      expect(exported).toEqual(listed.rows.map((row) => row.orderNumber));
    });
  });

  describe("an order's detail", () => {
    it("is null for a malformed or unknown id", async () => {
      expect(await findStaffOrder(test.db, "no-es-un-id")).toBeNull();
      expect(await findStaffOrder(test.db, randomUUID())).toBeNull();
    });

    it("has its items, payments, invoice, timeline and the actions its status allows", async () => {
      const [paid] = await test.db
        .select({ id: orders.id, invoiceNumber: invoices.invoiceNumber })
        .from(orders)
        .innerJoin(invoices, eq(invoices.orderId, orders.id))
        .where(eq(orders.status, "processing"))
        .limit(1);
      const order = (await findStaffOrder(test.db, paid!.id))!;
      expect(order.items.length).toBeGreaterThan(0);
      expect(order.payments.map((payment) => payment.status)).toContain("succeeded");
      expect(order.invoice?.invoiceNumber).toBe(paid!.invoiceNumber);
      expect(order.timeline.at(-1)).toMatchObject({ toStatus: "processing" });
      expect(order.timeline[0]).toMatchObject({ toStatus: "pending", actor: "customer" });
      expect(order.deliveries.length).toBeGreaterThan(0);
      expect(order.actions).toEqual({ cancel: true, refund: true, resendConfirmation: true });

      const [pending] = await test.db.select({ id: orders.id }).from(orders).where(eq(orders.status, "payment_created")).limit(1);
      expect((await findStaffOrder(test.db, pending!.id))!.actions).toEqual({ cancel: true, refund: false, resendConfirmation: false });
    });

    it("shows refunds and offers no refund once all captured money went back", async () => {
      const [payment] = await test.db
        .insert(payments)
        .values({ orderId: ids.bruno, provider: "culqi", method: "yape", status: "succeeded", amountCents: 5000, providerReference: "chr_test_bruno" })
        .returning();
      expect((await findStaffOrder(test.db, ids.bruno))!.actions.refund).toBe(true);
      const now = new Date();
      await test.db.insert(refunds).values({
        paymentId: payment!.id,
        orderId: ids.bruno,
        provider: "culqi",
        chargeReference: "chr_test_bruno",
        requestKey: "test-bruno-refund",
        amountCents: 5000,
        reason: "duplicate_charge",
        status: "succeeded",
        providerRefundId: "ref_test_1",
        nextAttemptAt: now,
        refundedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      const order = (await findStaffOrder(test.db, ids.bruno))!;
      expect(order.refunds).toEqual([
        expect.objectContaining({ amountCents: 5000, reason: "duplicate_charge", status: "succeeded", providerRefundId: "ref_test_1" }),
      ]);
      expect(order.actions.refund).toBe(false);
      expect(order.actions.cancel).toBe(false);
    });
  });

  describe("internal notes", () => {
    it("adds a note once per submission, audited, oldest first, and never rewrites one", async () => {
      const first = randomUUID();
      const now = new Date();
      expect(await addOrderNote(test.db, { orderId: ids.ana, body: "Llamó para cambiar la hora.", requestKey: first, author: staff, now })).toEqual({
        added: true,
      });
      expect(await addOrderNote(test.db, { orderId: ids.ana, body: "Llamó para cambiar la hora.", requestKey: first, author: staff, now })).toEqual({
        added: false,
      });
      await addOrderNote(test.db, { orderId: ids.ana, body: "Confirmado por WhatsApp.", requestKey: randomUUID(), author: staff, now });
      const order = (await findStaffOrder(test.db, ids.ana))!;
      expect(order.notes.map((note) => [note.body, note.authorName, note.authorEmail])).toEqual([
        ["Llamó para cambiar la hora.", staff.name, DEMO_OPERACIONES.email],
        ["Confirmado por WhatsApp.", staff.name, DEMO_OPERACIONES.email],
      ]);
      const audited = await test.db
        .select()
        .from(staffActions)
        .where(and(eq(staffActions.entityId, ids.ana), eq(staffActions.action, "order.note")));
      expect(audited).toHaveLength(2);
      expect(audited[0]).toMatchObject({ actorEmail: DEMO_OPERACIONES.email, actorRole: "operaciones", entityType: "order" });
      await expect(test.db.execute(sql`update order_notes set body = 'cambiado'`)).rejects.toThrow();
      await expect(test.db.delete(orderNotes).where(eq(orderNotes.orderId, ids.ana))).rejects.toThrow();
      expect(await test.db.select({ body: orderNotes.body }).from(orderNotes).where(eq(orderNotes.orderId, ids.ana))).toHaveLength(2);
    });

    it("refuses a note for an unknown order", async () => {
      await expect(
        addOrderNote(test.db, { orderId: randomUUID(), body: "x", requestKey: randomUUID(), author: staff, now: new Date() }),
      ).rejects.toBeInstanceOf(StaffOrderNotFoundError);
    });
  });

  describe("Reenviar confirmación", () => {
    it("queues the confirmation once per click, refuses another within a minute, and only for confirmed orders", async () => {
      const [paid] = await test.db
        .select({ id: orders.id, email: orders.customerEmail, orderNumber: orders.orderNumber })
        .from(orders)
        .innerJoin(invoices, eq(invoices.orderId, orders.id))
        .where(eq(orders.status, "delivered"))
        .limit(1);
      const key = randomUUID();
      const send = (requestKey: string) =>
        resendOrderConfirmation(test.db, { orderId: paid!.id, requestKey, actor: staff, siteUrl: SITE_URL, now: new Date() });
      expect(await send(key)).toEqual({ status: "sent", to: paid!.email });
      expect(await send(key)).toEqual({ status: "already_sent", to: paid!.email });
      expect(await send(randomUUID())).toEqual({ status: "too_soon" });
      const queued = await test.db
        .select()
        .from(outboxEmails)
        .where(sql`${outboxEmails.dedupeKey} like ${`order-confirmation:${paid!.id}:resend:%`}`);
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({ kind: "order-confirmation", toAddress: paid!.email, subject: `Pedido ${paid!.orderNumber} confirmado` });
      expect(queued[0]!.text).toContain(`${SITE_URL}/orden/${paid!.id}?token=`);
      const audited = await test.db
        .select()
        .from(staffActions)
        .where(and(eq(staffActions.entityId, paid!.id), eq(staffActions.action, "order.resend_confirmation")));
      expect(audited).toHaveLength(1);

      const [unpaid] = await test.db.select({ id: orders.id }).from(orders).where(eq(orders.status, "payment_created")).limit(1);
      expect(
        await resendOrderConfirmation(test.db, { orderId: unpaid!.id, requestKey: randomUUID(), actor: staff, siteUrl: SITE_URL, now: new Date() }),
      ).toEqual({ status: "not_confirmed" });
    });
  });
});
