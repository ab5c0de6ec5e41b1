import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { priceCartLines } from "@server/catalog/index.server";
import { updateRepeatSettings } from "@server/content/index.server";
import {
  bidonMovements,
  deliveries,
  garantiaEntries,
  invoices,
  orders,
  outboxEmails,
  payments,
  productVariants,
  refunds,
  staffActions,
  users,
} from "@server/db/schema";
import { bidonBalance, recordStaffBidonReturn } from "@server/deliveries/index.server";
import { applySandboxAction, confirmDriverStop, processGarantiaReturns, refundOrder } from "@server/order-flows/index.server";
import {
  availableGarantiaCredit,
  garantiaSummary,
  garantiaSummaryForUser,
  garantiasHeld,
  setGarantiaPreference,
  settleGarantiaByHand,
} from "@server/garantias/index.server";
import { comprobanteForInvoice } from "@server/invoices/comprobante-for-invoice";
import { nubefactPayload } from "@server/invoices/providers/nubefact";
import { nubefactProvider, sendDueComprobantes, validateComprobante } from "@server/invoices/index.server";
import { startNubefactMock } from "../support/nubefact-mock";
import { orderRefundSummary } from "@server/payments/index.server";
import { sql } from "drizzle-orm";
import { checkoutInput } from "../support/checkout-fixture";
import { expectConsoleError } from "../support/fail-on-console-error";
import { newCustomer } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Orders are placed on Tuesday 24 November 2026 (10:00 Lima) for Wednesday the 25th in Miraflores;
// every instant below is built from these and handed to the code (nothing reads the real clock).
const placedAt = new Date("2026-11-24T15:00:00Z");
const deliveredAt = new Date("2026-11-25T15:00:00Z");
const siteUrl = "http://shop.test";
const GARANTIA = 2000;

/** Decision 0075: the bidón garantía is charged for bidones the customer does not hold, held once delivered, and returned when they come back. */
describe("the bidón garantía", () => {
  let test: TestDatabase;
  let driver: StaffActor;
  const admin: StaffActor = { id: "staff-admin", email: "admin@demo.pe", role: "admin", clientAddress: "127.0.0.1" };
  let recarga: { productId: number; variantId: number };
  let pack3: { productId: number; variantId: number };

  async function variant(sku: string) {
    const [row] = await test.db
      .select({ productId: productVariants.productId, variantId: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.sku, sku));
    return row!;
  }

  /** A paid one-time order of `lines` for the guest `email` (or the customer `userId`), with the phone given. */
  async function paidOrder(input: {
    email: string;
    phone?: string;
    userId?: string | null;
    lines: { productId: number; variantId: number | null; quantity: number }[];
  }) {
    const priced = await priceCartLines(test.db, input.lines);
    const placed = await placeOrder(
      test.db,
      checkoutInput(placedAt, { correo: input.email, telefono: input.phone ?? "987654321", items: input.lines, clientSubtotalCents: priced.subtotalCents }),
      { now: placedAt, provider: "sandbox", userId: input.userId ?? null },
    );
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error(`order not placed: ${JSON.stringify(placed)}`);
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl });
    const [order] = await test.db.select().from(orders).where(eq(orders.id, placed.orderId));
    return order!;
  }

  async function deliver(orderId: string, fullBidonesLeft: number, emptyBidonesCollected: number) {
    const [delivery] = await test.db
      .update(deliveries)
      .set({ assignedDriverId: driver.id, status: "scheduled" })
      .where(eq(deliveries.orderId, orderId))
      .returning();
    const result = await confirmDriverStop(test.db, {
      deliveryId: delivery!.id,
      driver,
      confirmation: { kind: "delivered", receiverName: "Rosa Quispe", fullBidonesLeft, emptyBidonesCollected },
      now: deliveredAt,
      siteUrl,
    });
    expect(result).toEqual({ ok: true, changed: true });
    return delivery!.id;
  }

  const entriesOf = (email: string) =>
    test.db.select().from(garantiaEntries).where(eq(garantiaEntries.customerEmail, email)).orderBy(asc(garantiaEntries.createdAt), asc(garantiaEntries.kind));
  const caja = { productId: 6, variantId: null, quantity: 1 };

  /** A customer whose pack of 3 returnable bidones was paid and delivered: 3 garantías held. */
  async function holdingThree(label: string) {
    const customer = await newCustomer(test.db, label);
    const ledger = { userId: customer.id, email: customer.email };
    const order = await paidOrder({ email: customer.email, userId: customer.id, lines: [{ ...pack3, quantity: 1 }] });
    await deliver(order.id, 3, 0);
    return { customer, ledger, order };
  }
  /** Staff record one bidón given back in good condition. */
  const returnOne = (ledger: { userId: string; email: string }) =>
    recordStaffBidonReturn(test.db, admin, { customer: ledger, quantity: 1, goodCondition: true, note: null, requestKey: randomUUID(), now: deliveredAt });

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const email = `garantia-driver-${randomUUID().slice(0, 8)}@demo.pe`;
    driver = { id: `staff-${email}`, email, role: "repartidor", clientAddress: "127.0.0.1" };
    await test.db
      .insert(users)
      .values({ id: driver.id, name: "Jorge", email, emailVerified: true, firstName: "Jorge", lastName: "Reparto", role: "repartidor" });
    recarga = await variant("VA-BH20-REC");
    pack3 = await variant("VA-BH20-R3");
  });
  afterAll(() => test.close());

  it("charges a new customer one garantía per returnable bidón, as its own line outside the S/ 50 minimum", async () => {
    // Two recargas (S/ 44.00) stay under the minimum even though their garantía would pass it.
    const two = [{ ...recarga, quantity: 2 }];
    const priced = await priceCartLines(test.db, two);
    const refused = await placeOrder(test.db, checkoutInput(placedAt, { correo: "minimo@example.pe", items: two, clientSubtotalCents: priced.subtotalCents }), {
      now: placedAt,
      provider: "sandbox",
    });
    expect(refused).toMatchObject({ ok: false, reason: "minimum", shortfallCents: 600 });

    const order = await paidOrder({ email: "nueva@example.pe", lines: [{ ...pack3, quantity: 1 }] });
    expect(order).toMatchObject({
      subtotalCents: 6000,
      garantiaUnits: 3,
      garantiaCents: 3 * GARANTIA,
      totalCents: 6000 + 3 * GARANTIA,
      garantiaBasis: "guest_new",
    });
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, order.id));
    expect(payment!.amountCents).toBe(12000);
  });

  it("puts the garantía on the boleta as a separate non-taxed line, and leaves it off when the setting says so", async () => {
    const order = await paidOrder({ email: "boleta@example.pe", lines: [{ ...pack3, quantity: 1 }] });
    const [invoice] = await test.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    expect(invoice).toMatchObject({ totalCents: 12000, igvCents: 6000 - Math.round(6000 / 1.18) });
    const document = await comprobanteForInvoice(test.db, invoice!);
    validateComprobante(document);
    expect(document.lines.map((line) => [line.code, line.igvType ?? "gravado", line.quantity, line.totalCents, line.igvCents])).toEqual([
      ["VA-BH20-R3", "gravado", 1, 6000, 6000 - Math.round(6000 / 1.18)],
      ["GARANTIA", "inafecto", 3, 6000, 0],
    ]);
    expect(document).toMatchObject({ totalCents: 12000, untaxedCents: 6000, taxableCents: Math.round(6000 / 1.18) });
    const payload = nubefactPayload(document);
    expect(payload).toMatchObject({ total: 120, total_inafecta: 60, total_gravada: 50.85 });
    expect((payload.items as { tipo_de_igv: number }[]).map((item) => item.tipo_de_igv)).toEqual([1, 9]);

    expect(await updateRepeatSettings(test.db, admin, { reorderRemindersEnabled: true, garantiaComprobanteMode: "fuera" }, placedAt)).toEqual({ ok: true });
    const outside = await paidOrder({ email: "fuera@example.pe", lines: [{ ...pack3, quantity: 1 }] });
    expect(outside).toMatchObject({ totalCents: 12000, garantiaOnComprobante: false });
    const [outsideInvoice] = await test.db.select().from(invoices).where(eq(invoices.orderId, outside.id));
    expect(outsideInvoice!.totalCents).toBe(6000);
    expect((await comprobanteForInvoice(test.db, outsideInvoice!)).lines.map((line) => line.code)).toEqual(["VA-BH20-R3"]);
    await updateRepeatSettings(test.db, admin, { reorderRemindersEnabled: true, garantiaComprobanteMode: "inafecto" }, placedAt);
  });

  it("holds the garantía once the bidones are delivered, and swaps them free on the next order of the same e-mail and phone only", async () => {
    const email = "cambio@example.pe";
    const first = await paidOrder({ email, lines: [{ ...pack3, quantity: 1 }] });
    await deliver(first.id, 3, 0);
    expect((await entriesOf(email)).map((entry) => [entry.kind, entry.units, entry.amountCents])).toEqual([["held", 3, 6000]]);

    const exchange = await paidOrder({ email, lines: [{ ...pack3, quantity: 1 }] });
    expect(exchange).toMatchObject({ garantiaUnits: 0, garantiaCents: 0, totalCents: 6000, garantiaBasis: "guest_match" });
    // Someone who types this e-mail with another phone pays every garantía, like any new address.
    const stranger = await paidOrder({ email, phone: "912345678", lines: [{ ...pack3, quantity: 1 }] });
    expect(stranger).toMatchObject({ garantiaUnits: 3, garantiaCents: 6000, garantiaBasis: "guest_new" });

    // An exchange at the door moves nothing: three full left, three empties back.
    await deliver(exchange.id, 3, 3);
    expect((await entriesOf(email)).map((entry) => entry.kind)).toEqual(["held"]);
  });

  it("counts paid bidones still on their way, so a second order before the first arrives is an exchange", async () => {
    const email = "encamino@example.pe";
    await paidOrder({ email, lines: [{ ...pack3, quantity: 1 }] });
    const second = await paidOrder({ email, lines: [{ ...pack3, quantity: 1 }] });
    expect(second).toMatchObject({ garantiaUnits: 0, garantiaBasis: "guest_match" });
  });

  it("returns the garantía of the empties collected beyond what the customer owes, through the payment, once, with its nota de crédito", async () => {
    const email = "devuelve@example.pe";
    const first = await paidOrder({ email, lines: [{ ...pack3, quantity: 1 }] });
    await deliver(first.id, 3, 0);
    const [paid] = await test.db.select().from(payments).where(eq(payments.orderId, first.id));
    // A later order without bidones: the driver takes two empties back.
    const later = await paidOrder({ email, lines: [caja] });
    const deliveryId = await deliver(later.id, 0, 2);
    expect((await bidonBalance(test.db, { userId: null, email })).balance).toBe(1);
    const released = (await entriesOf(email)).filter((entry) => entry.kind === "released");
    expect(released.map((entry) => [entry.orderId, entry.units, entry.amountCents, entry.outcome, entry.status, entry.deliveryId])).toEqual([
      [first.id, 2, 4000, "refund", "pending", deliveryId],
    ]);

    const report = await processGarantiaReturns(test.db, { now: deliveredAt, siteUrl, culqi: null });
    expect(report).toEqual({ refunded: 1, credited: 0, waiting: 0, needsStaff: 0 });
    expect(await processGarantiaReturns(test.db, { now: deliveredAt, siteUrl, culqi: null })).toEqual({ refunded: 0, credited: 0, waiting: 0, needsStaff: 0 });
    const given = await test.db.select().from(refunds).where(eq(refunds.orderId, first.id));
    expect(given.map((refund) => [refund.paymentId, refund.amountCents, refund.reason, refund.status])).toEqual([
      [paid!.id, 4000, "garantia_return", "succeeded"],
    ]);
    const notes = await test.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, first.id), eq(invoices.documentType, "nota_credito")));
    expect(notes.map((note) => [note.totalCents, note.garantiaEntryId, note.creditNoteType])).toEqual([[4000, released[0]!.id, 7]]);
    const noteDocument = await comprobanteForInvoice(test.db, notes[0]!);
    validateComprobante(noteDocument);
    expect(noteDocument.lines.map((line) => [line.igvType, line.quantity, line.totalCents])).toEqual([["inafecto", 2, 4000]]);
    const told = await test.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `order-refunded:${given[0]!.id}`));
    expect(told[0]!.text).toContain("Devolución de la garantía de 2 bidones retornables");

    const summary = await garantiaSummary(test.db, { userId: null, email });
    expect(summary).toMatchObject({ heldUnits: 1, heldCents: 2000, creditCents: 0, preference: "refund" });
    expect(summary.returns.map((row) => [row.units, row.amountCents, row.state])).toEqual([[2, 4000, "devuelta"]]);
  });

  it("never returns more garantía than it holds, even when two deliveries bring empties back at once", async () => {
    const email = "doble@example.pe";
    const first = await paidOrder({ email, lines: [{ ...pack3, quantity: 1 }] });
    await deliver(first.id, 3, 0);
    const a = await paidOrder({ email, lines: [caja] });
    const b = await paidOrder({ email, lines: [caja] });
    await Promise.all([deliver(a.id, 0, 2), deliver(b.id, 0, 2)]);
    const released = (await entriesOf(email)).filter((entry) => entry.kind === "released");
    expect(released.reduce((sum, entry) => sum + entry.units, 0)).toBe(3);
    expect(released.reduce((sum, entry) => sum + entry.amountCents, 0)).toBe(6000);
  });

  it("gives a customer who prefers credit the garantía of bidones staff record as returned, and spends it on the next one-time order", async () => {
    const customer = await newCustomer(test.db, "credito");
    const first = await paidOrder({ email: customer.email, userId: customer.id, lines: [{ ...pack3, quantity: 1 }] });
    expect(first.garantiaBasis).toBe("account");
    await deliver(first.id, 3, 0);
    await setGarantiaPreference(test.db, customer.id, "credit", deliveredAt);

    const ledger = { userId: customer.id, email: customer.email };
    const requestKey = randomUUID();
    const returned = () =>
      recordStaffBidonReturn(test.db, admin, { customer: ledger, quantity: 2, goodCondition: true, note: null, requestKey, now: deliveredAt });
    const [once, twice] = await Promise.all([returned(), returned()]);
    expect([once, twice].filter((result) => result.ok && result.changed)).toHaveLength(1);
    expect([once, twice].every((result) => result.ok)).toBe(true);
    expect(
      await test.db
        .select()
        .from(bidonMovements)
        .where(eq(bidonMovements.sourceKey, `staff:${requestKey}`)),
    ).toHaveLength(1);
    expect((await bidonBalance(test.db, ledger)).balance).toBe(1);
    expect(
      await test.db
        .select()
        .from(staffActions)
        .where(and(eq(staffActions.action, "bidones.return"), eq(staffActions.entityId, customer.id))),
    ).toHaveLength(1);

    // More than they hold is refused, and nothing is written.
    expect(
      await recordStaffBidonReturn(test.db, admin, {
        customer: ledger,
        quantity: 2,
        goodCondition: true,
        note: null,
        requestKey: randomUUID(),
        now: deliveredAt,
      }),
    ).toEqual({
      ok: false,
      message: "El cliente tiene 1 bidón nuestro: no puede devolver 2.",
    });

    expect(await availableGarantiaCredit(test.db, customer.id)).toBe(4000);
    expect(await processGarantiaReturns(test.db, { now: deliveredAt, siteUrl, culqi: null })).toMatchObject({ credited: 1 });
    expect(await test.db.select().from(outboxEmails).where(like(outboxEmails.dedupeKey, "garantia-credit:%"))).toHaveLength(1);
    expect(await test.db.select().from(refunds).where(eq(refunds.orderId, first.id))).toEqual([]);

    const next = await paidOrder({ email: customer.email, userId: customer.id, lines: [caja] });
    expect(next).toMatchObject({ totalCents: 5990, garantiaCreditCents: 4000 });
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, next.id));
    expect(payment!.amountCents).toBe(1990);
    expect(await availableGarantiaCredit(test.db, customer.id)).toBe(0);
    // The comprobante is the whole sale: the credit is the customer's deposit paying part of it.
    const [invoice] = await test.db.select().from(invoices).where(eq(invoices.orderId, next.id));
    expect(invoice!.totalCents).toBe(5990);
  });

  it("keeps the garantía of a bidón that came back broken", async () => {
    const customer = await newCustomer(test.db, "roto");
    const first = await paidOrder({ email: customer.email, userId: customer.id, lines: [{ ...pack3, quantity: 1 }] });
    await deliver(first.id, 3, 0);
    const result = await recordStaffBidonReturn(test.db, admin, {
      customer: { userId: customer.id, email: customer.email },
      quantity: 1,
      goodCondition: false,
      note: "Bidón perforado",
      requestKey: randomUUID(),
      now: deliveredAt,
    });
    expect(result).toMatchObject({
      ok: true,
      changed: true,
      message: "Devolución de 1 bidón registrada. La garantía (S/ 20.00) queda retenida por el bidón dañado.",
    });
    const summary = await garantiaSummary(test.db, { userId: customer.id, email: customer.email });
    expect(summary).toMatchObject({ heldUnits: 2, heldCents: 4000, creditCents: 0 });
    expect(summary.returns.map((row) => row.state)).toEqual(["retenida"]);
  });

  it("lets admin and operaciones close, once, a garantía return the payment could not give back, with its note, nota de crédito and audit entry", async () => {
    const customer = await newCustomer(test.db, "a-mano");
    const ledger = { userId: customer.id, email: customer.email };
    const first = await paidOrder({ email: customer.email, userId: customer.id, lines: [{ ...pack3, quantity: 1 }] });
    await deliver(first.id, 3, 0);
    // The order's payment was refunded in full outside the shop (a fixture: the payment is no longer a settled one).
    await test.db.update(payments).set({ status: "refunded" }).where(eq(payments.orderId, first.id));
    const staffReturn = (goodCondition: boolean) =>
      recordStaffBidonReturn(test.db, admin, { customer: ledger, quantity: 1, goodCondition, note: null, requestKey: randomUUID(), now: deliveredAt });
    expect(await staffReturn(true)).toMatchObject({ ok: true, changed: true });
    const [release] = (await entriesOf(customer.email)).filter((entry) => entry.kind === "released");
    const operaciones: StaffActor = { ...admin, id: "staff-operaciones", email: "operaciones@demo.pe", role: "operaciones" };
    const settle = (actor: StaffActor, input: Partial<{ releaseId: string; note: string; customer: typeof ledger }> = {}) =>
      settleGarantiaByHand(test.db, actor, { customer: ledger, releaseId: release!.id, note: "Transferencia BCP del 26/11", now: deliveredAt, ...input });
    const settledAudit = () =>
      test.db
        .select()
        .from(staffActions)
        .where(and(eq(staffActions.action, "garantias.returned_by_hand"), eq(staffActions.entityId, release!.id)));

    // Still the job's (pending): refused, nothing written.
    expect(await settle(admin)).toMatchObject({ ok: false, reason: "refused" });
    expectConsoleError(/needs staff: El pedido no tiene un pago cobrado/);
    const report = await processGarantiaReturns(test.db, { now: deliveredAt, siteUrl, culqi: null });
    expect(report.needsStaff).toBe(1);
    const needing = await garantiaSummary(test.db, ledger);
    expect(needing.returns.map((row) => [row.id, row.state])).toEqual([[release!.id, "requiere_atencion"]]);

    // Wrong roles, another customer's page, no note: refused, nothing written.
    expect(await settle({ ...admin, role: "repartidor" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await settle({ ...admin, role: "customer" as StaffActor["role"] })).toMatchObject({ ok: false, reason: "forbidden" });
    const stranger = await newCustomer(test.db, "otro");
    expect(await settle(admin, { customer: { userId: stranger.id, email: stranger.email } })).toMatchObject({ ok: false, reason: "not_found" });
    expect(await settle(admin, { note: "   " })).toMatchObject({ ok: false, reason: "refused" });
    expect(await settle(admin, { note: "x".repeat(301) })).toMatchObject({ ok: false, reason: "refused" });
    const creditNotes = () =>
      test.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.documentType, "nota_credito"), eq(invoices.garantiaEntryId, release!.id)));
    expect(await creditNotes()).toEqual([]);
    expect(await settledAudit()).toEqual([]);
    expect((await test.db.select().from(garantiaEntries).where(eq(garantiaEntries.id, release!.id)))[0]!.status).toBe("needs_staff");

    // A double click closes it once, and both answers say it is closed.
    const [one, two] = await Promise.all([settle(operaciones), settle(operaciones)]);
    expect([one, two].every((result) => result.ok)).toBe(true);
    expect([one, two].filter((result) => result.ok && result.changed)).toHaveLength(1);
    expect(await settle(admin)).toEqual({ ok: true, changed: false, message: "Esta garantía ya estaba marcada como devuelta a mano." });
    const [closed] = await test.db.select().from(garantiaEntries).where(eq(garantiaEntries.id, release!.id));
    expect(closed).toMatchObject({
      status: "returned_by_hand",
      settledBy: "operaciones@demo.pe",
      settledNote: "Transferencia BCP del 26/11",
      settledAt: deliveredAt,
    });
    expect((await creditNotes()).map((note) => [note.totalCents, note.orderId, note.creditNoteType])).toEqual([[2000, first.id, 7]]);
    const audit = await settledAudit();
    expect(audit.map((row) => [row.actorEmail, row.actorRole, row.before, row.after])).toEqual([
      [
        "operaciones@demo.pe",
        "operaciones",
        { status: "needs_staff", refundStatus: null },
        { status: "returned_by_hand", amountCents: 2000, units: 1, note: "Transferencia BCP del 26/11" },
      ],
    ]);
    // The job leaves it alone; staff see who gave it back and how, the customer only that it was.
    expect((await processGarantiaReturns(test.db, { now: new Date(deliveredAt.getTime() + 86_400_000), siteUrl, culqi: null })).needsStaff).toBe(0);
    const staffView = await garantiaSummary(test.db, ledger);
    expect(staffView.returns.map((row) => [row.state, row.settledBy, row.settledNote])).toEqual([
      ["devuelta_a_mano", "operaciones@demo.pe", "Transferencia BCP del 26/11"],
    ]);
    const ownView = await garantiaSummaryForUser(test.db, customer.id);
    expect(ownView.returns.map((row) => [row.state, row.settledBy, row.settledNote])).toEqual([["devuelta_a_mano", null, null]]);

    // A garantía already done (kept for a broken bidón) is refused too.
    expect(await staffReturn(false)).toMatchObject({ ok: true, changed: true });
    const kept = (await entriesOf(customer.email)).find((entry) => entry.kind === "released" && entry.outcome === "forfeited");
    expect(kept!.status).toBe("done");
    expect(await settle(admin, { releaseId: kept!.id })).toMatchObject({ ok: false, reason: "refused" });
    expect(await test.db.select().from(staffActions).where(eq(staffActions.entityId, kept!.id))).toEqual([]);
  });

  it("lets staff close a garantía return whose refund the provider refused", async () => {
    const { customer, ledger } = await holdingThree("rechazo");
    await returnOne(ledger);
    await processGarantiaReturns(test.db, { now: deliveredAt, siteUrl, culqi: null });
    const [release] = (await entriesOf(customer.email)).filter((entry) => entry.kind === "released");
    expect(release!.status).toBe("refunding");
    // The provider refused the refund (a fixture: the refund row's end state).
    await test.db.update(refunds).set({ status: "failed", lastError: "Cargo ya reembolsado" }).where(eq(refunds.id, release!.refundId!));
    expect((await garantiaSummary(test.db, ledger)).returns.map((row) => row.state)).toEqual(["requiere_atencion"]);
    const result = await settleGarantiaByHand(test.db, admin, { customer: ledger, releaseId: release!.id, note: "Efectivo en oficina", now: deliveredAt });
    expect(result).toMatchObject({ ok: true, changed: true });
    expect((await garantiaSummary(test.db, ledger)).returns.map((row) => row.state)).toEqual(["devuelta_a_mano"]);
    // Its nota de crédito was the job's already: still one.
    expect(
      await test.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.documentType, "nota_credito"), eq(invoices.garantiaEntryId, release!.id))),
    ).toHaveLength(1);
  });

  it("keeps the garantía out of a staff refund: a full refund leaves it for the bidones, and one returned by hand is never refunded again", async () => {
    const deps = { now: deliveredAt, siteUrl, culqi: null };
    const refundAll = (orderId: string) =>
      refundOrder(test.db, admin, { orderId, amountCents: null, reason: "Reclamo del cliente", requestKey: randomUUID() }, deps);
    const heldOf = async (orderId: string) => {
      const summary = (await orderRefundSummary(test.db, orderId))!;
      return [summary.capturedCents, summary.garantiaHeldCents, summary.refundableCents];
    };

    // Refunded in full after delivery: everything but the 3 garantías, which come back with the bidones.
    const { ledger, order: first } = await holdingThree("reembolso-total");
    const captured = first.totalCents;
    expect(await heldOf(first.id)).toEqual([captured, 3 * GARANTIA, captured - 3 * GARANTIA]);
    expect(await refundAll(first.id)).toMatchObject({ ok: true, amountCents: captured - 3 * GARANTIA });
    expect(await heldOf(first.id)).toEqual([captured, 3 * GARANTIA, 0]);
    await returnOne(ledger);
    expect(await processGarantiaReturns(test.db, { now: deliveredAt, siteUrl, culqi: null })).toMatchObject({ refunded: 1, needsStaff: 0 });
    expect(await heldOf(first.id)).toEqual([captured, 2 * GARANTIA, 0]);

    // Given back by hand after the provider refused its refund: still not refundable by staff.
    const { customer: other, ledger: otherLedger, order: second } = await holdingThree("a-mano-reembolso");
    await returnOne(otherLedger);
    await processGarantiaReturns(test.db, { now: deliveredAt, siteUrl, culqi: null });
    const [release] = (await entriesOf(other.email)).filter((entry) => entry.kind === "released");
    await test.db.update(refunds).set({ status: "failed", lastError: "Cargo ya reembolsado" }).where(eq(refunds.id, release!.refundId!));
    await settleGarantiaByHand(test.db, admin, { customer: otherLedger, releaseId: release!.id, note: "Yape al cliente", now: deliveredAt });
    expect(await refundAll(second.id)).toMatchObject({ ok: true, amountCents: second.totalCents - 3 * GARANTIA });
    expect(await heldOf(second.id)).toEqual([second.totalCents, 3 * GARANTIA, 0]);
    expect(await refundAll(second.id)).toMatchObject({ ok: false, message: "Este pedido ya no tiene saldo por reembolsar." });
  });

  it("charges the garantía with a subscription's first order only", async () => {
    const customer = await newCustomer(test.db, "suscriptor");
    const lines = [{ ...pack3, quantity: 1 }];
    const priced = await priceCartLines(test.db, lines);
    const placed = await placeOrder(
      test.db,
      checkoutInput(placedAt, { purchaseType: "subscription", correo: customer.email, items: lines, clientSubtotalCents: priced.subtotalCents }),
      { now: placedAt, provider: "sandbox", userId: customer.id },
    );
    if (!placed.ok || placed.nextStep !== "tokenize_card") throw new Error("not placed");
    const [order] = await test.db.select().from(orders).where(eq(orders.id, placed.orderId));
    // 5 % off S/ 60.00 is S/ 57.00; the garantía of three bidones comes on top, charged with the first period.
    expect(order).toMatchObject({ totalCents: 5700 + 6000, garantiaCents: 6000, garantiaCreditCents: 0 });
    const [subscription] = await test.db
      .execute(sql`select amount_cents from subscriptions where id = ${placed.subscriptionId}`)
      .then((result) => (result as unknown as { rows: { amount_cents: number }[] }).rows);
    expect(Number(subscription!.amount_cents)).toBe(5700);
  });

  it("sends the boletas with a garantía line and the garantía's notas de crédito to the OSE, which accepts them", async () => {
    const nubefact = await startNubefactMock();
    try {
      const provider = nubefactProvider({ url: nubefact.url, token: nubefact.token, timeoutMs: 5_000 });
      const report = await sendDueComprobantes(test.db, provider, { now: new Date(deliveredAt.getTime() + 60_000), siteUrl });
      expect(report.rejected).toBe(0);
      const sent = [...nubefact.documents.values()];
      const withGarantia = sent.filter((document) => Number(document.body.total_inafecta ?? 0) > 0);
      expect(withGarantia.length).toBeGreaterThanOrEqual(2);
      expect(withGarantia.every((document) => document.accepted)).toBe(true);
      expect(withGarantia.some((document) => document.body.tipo_de_comprobante === 3)).toBe(true);
      expect(nubefact.generateRequests.length).toBe(sent.length);
    } finally {
      await nubefact.close();
    }
  });

  it("shows the garantías held on the metrics, outside revenue", async () => {
    const held = await garantiasHeld(test.db, sql`${new Date("2027-01-01T05:00:00Z").toISOString()}::timestamptz`);
    const rows = await test.db.select().from(garantiaEntries);
    const expected = rows.reduce((sum, entry) => sum + (entry.kind === "held" ? entry.amountCents : -entry.amountCents), 0);
    expect(held.cents).toBe(expected);
    expect(held.cents).toBeGreaterThan(0);
    expect(held.chargedNotDeliveredCents).toBeGreaterThan(0);
  });
});
