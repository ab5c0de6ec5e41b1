import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, orders, orderStatusChanges, outboxEmails, refunds, staffActions } from "@server/db/schema";
import { runDueJobs } from "@server/jobs/index.server";
import { applySandboxAction, cancelOrderByStaff, chargeCulqiToken, markManualRefundDone, refundOrder } from "@server/order-flows/index.server";
import { transitionOrder, type OrderStatus } from "@server/orders/index.server";
import { createCulqiClient, type CulqiClient } from "@server/payments/culqi";
import { orderRefundSummary, setOperacionesRefundPolicy, type RefundDeps } from "@server/payments/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { startCulqiMock, type CulqiMock } from "../support/culqi-mock";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 10:00 in Lima; the fixture's delivery is Wednesday 2026-11-25 in Miraflores.
const placedAt = new Date("2026-11-24T15:00:00Z");
const later = new Date("2026-11-26T15:00:00Z");
const siteUrl = "http://shop.test";
const admin: StaffActor = { id: "staff-admin", email: "admin@demo.pe", role: "admin", clientAddress: "127.0.0.1" };
const operaciones: StaffActor = { id: "staff-ops", email: "operaciones@demo.pe", role: "operaciones", clientAddress: "127.0.0.1" };
let keys = 0;
const key = () => `00000000-0000-4000-8000-${String(++keys).padStart(12, "0")}`;

describe("staff cancellations and refunds (issue 10)", () => {
  let test: TestDatabase;
  let culqi: CulqiMock;
  let client: CulqiClient;
  let deps: RefundDeps;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    culqi = await startCulqiMock();
    client = createCulqiClient({ secretKey: culqi.secretKey, apiBase: culqi.apiBase, timeoutMs: 1000 });
    deps = { now: later, siteUrl, culqi: client };
  });
  afterAll(async () => {
    await culqi.close();
    await test.close();
  });

  const orderRow = async (orderId: string) => (await test.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  const refundsOf = (orderId: string) => test.db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.createdAt));
  const emailsTo = (kind: string, to: string) =>
    test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, kind), eq(outboxEmails.toAddress, to)));
  const auditOf = (orderId: string) => test.db.select().from(staffActions).where(eq(staffActions.entityId, orderId)).orderBy(asc(staffActions.id));
  const culqiRefundsOf = (chargeId: string) => culqi.refunds.filter((refund) => refund.charge_id === chargeId);

  async function sandboxPaidOrder(correo: string, quantity = 1, action: "approve_card" | "pay_code" = "approve_card") {
    const placed = await placeOrder(
      test.db,
      checkoutInput(placedAt, { correo, items: [{ productId: 6, variantId: null, quantity }], clientSubtotalCents: 5990 * quantity }),
      { now: placedAt, provider: "sandbox" },
    );
    if (!placed.ok) throw new Error(`order not placed: ${JSON.stringify(placed)}`);
    if (action === "pay_code") await applySandboxAction(test.db, placed.paymentId, "issue_code", { now: placedAt, siteUrl });
    await applySandboxAction(test.db, placed.paymentId, action, { now: placedAt, siteUrl });
    expect((await orderRow(placed.orderId)).status).toBe("paid");
    return placed;
  }

  async function culqiPaidOrder(correo: string) {
    const placed = await placeOrder(test.db, checkoutInput(placedAt, { correo }), { now: placedAt, provider: "culqi" });
    if (!placed.ok) throw new Error("order not placed");
    const answer = await chargeCulqiToken(test.db, client, {
      paymentId: placed.paymentId,
      token: await culqi.tokenize("4111111111111111", correo),
      now: placedAt,
      siteUrl,
    });
    expect(answer.outcome).toBe("paid");
    const chargeId = [...culqi.charges.values()].find((charge) => (charge.metadata as Record<string, string>).payment_id === placed.paymentId)!.id as string;
    return { ...placed, chargeId };
  }

  const setLimit = (limitCents: number, mayCancelAnyAmount = false) => setOperacionesRefundPolicy(test.db, admin, { limitCents, mayCancelAnyAmount }, later);

  async function deliver(orderId: string) {
    for (const status of ["processing", "shipped", "delivered"] as OrderStatus[])
      await transitionOrder(test.db, orderId, status, { actor: "test", now: placedAt });
  }

  it("refunds part and then the rest of a delivered sandbox order, never more than was captured, and tells the customer each time", async () => {
    const order = await sandboxPaidOrder("parcial@example.pe");
    await deliver(order.orderId);
    const captured = (await orderRow(order.orderId)).totalCents;

    const tooMuch = await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: captured + 1, reason: "Error de cobro", requestKey: key() }, deps);
    expect(tooMuch).toMatchObject({ ok: false, code: "refused", message: expect.stringContaining("supera lo que queda por reembolsar") });

    const part = await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 2550, reason: "Un bidón llegó golpeado", requestKey: key() }, deps);
    expect(part).toMatchObject({ ok: true, status: "succeeded", amountCents: 2550 });
    expect((await orderRow(order.orderId)).status).toBe("delivered");
    expect(await orderRefundSummary(test.db, order.orderId)).toMatchObject({ capturedCents: captured, refundedCents: 2550, refundableCents: captured - 2550 });

    const beyondRest = await refundOrder(
      test.db,
      admin,
      { orderId: order.orderId, amountCents: captured - 2550 + 1, reason: "Otra vez", requestKey: key() },
      deps,
    );
    expect(beyondRest).toMatchObject({ ok: false, code: "refused" });

    const rest = await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: null, reason: "Cliente insatisfecho", requestKey: key() }, deps);
    expect(rest).toMatchObject({ ok: true, status: "succeeded", amountCents: captured - 2550 });
    expect((await orderRow(order.orderId)).status).toBe("refunded");
    const rows = await refundsOf(order.orderId);
    expect(rows.map((row) => [row.amountCents, row.status, row.requestedBy])).toEqual([
      [2550, "succeeded", "admin@demo.pe"],
      [captured - 2550, "succeeded", "admin@demo.pe"],
    ]);
    // What the nota de crédito will need: the invoice corrected, the amount, the reason, when.
    expect(rows.every((row) => row.invoiceId !== null && row.refundedAt !== null && row.note !== null)).toBe(true);

    const nothingLeft = await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 1, reason: "Más", requestKey: key() }, deps);
    expect(nothingLeft).toMatchObject({ ok: false, message: "Este pedido ya no tiene saldo por reembolsar." });

    const emails = await emailsTo("order-refunded", "parcial@example.pe");
    expect(emails.map((email) => email.subject).sort()).toEqual(
      [`Reembolsamos tu pedido ${order.orderNumber}`, `Reembolsamos una parte de tu pedido ${order.orderNumber}`].sort(),
    );
    expect(emails.find((email) => email.subject.includes("una parte"))!.text).toContain("S/ 25.50");
    expect((await auditOf(order.orderId)).filter((entry) => entry.action === "order.refund")).toHaveLength(2);
  });

  it("applies a double-submitted or retried refund once, with Culqi forgetting idempotency keys", async () => {
    const order = await culqiPaidOrder("doble@example.pe");
    await deliver(order.orderId);
    culqi.ignoreIdempotencyKeys(true);
    try {
      const requestKey = key();
      const input = { orderId: order.orderId, amountCents: 1000, reason: "Descuento prometido", requestKey };
      const answers = await Promise.all([refundOrder(test.db, operaciones, input, deps), refundOrder(test.db, operaciones, input, deps)]);
      const retried = await refundOrder(test.db, operaciones, input, deps);
      for (const answer of [...answers, retried]) expect(answer).toMatchObject({ ok: true, amountCents: 1000 });
      expect(retried).toMatchObject({ status: "succeeded" });
      expect(await refundsOf(order.orderId)).toHaveLength(1);
      expect(culqiRefundsOf(order.chargeId)).toEqual([expect.objectContaining({ amount: 1000, reason: "solicitud_comprador" })]);
      expect(Number(culqi.charges.get(order.chargeId)!.amount_refunded)).toBe(1000);
      expect(await emailsTo("order-refunded", "doble@example.pe")).toHaveLength(1);
      expect((await auditOf(order.orderId)).filter((entry) => entry.action === "order.refund")).toHaveLength(1);
    } finally {
      culqi.ignoreIdempotencyKeys(false);
    }
  });

  it("lets only one of two concurrent refunds for the last remaining amount through", async () => {
    const order = await sandboxPaidOrder("carrera@example.pe");
    await deliver(order.orderId);
    const captured = (await orderRow(order.orderId)).totalCents;
    await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: captured - 1000, reason: "Primera parte", requestKey: key() }, deps);

    const answers = await Promise.all([
      refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 1000, reason: "Resto A", requestKey: key() }, deps),
      refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 1000, reason: "Resto B", requestKey: key() }, deps),
    ]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok)).toEqual([expect.objectContaining({ code: "refused" })]);
    const rows = await refundsOf(order.orderId);
    expect(rows.reduce((sum, row) => sum + row.amountCents, 0)).toBe(captured);
    expect((await orderRow(order.orderId)).status).toBe("refunded");
  });

  it("leaves a refund whose Culqi answer times out pending, and the refunds job reconciles it once without asking Culqi again", async () => {
    const order = await culqiPaidOrder("lento@example.pe");
    await deliver(order.orderId);
    culqi.ignoreIdempotencyKeys(true);
    try {
      culqi.failNextRefund("timeout", 2500);
      expectConsoleError(/\[payments\] refund .* failed \(attempt 1: .*(Timeout|abort)/i);
      const answer = await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 2000, reason: "Botella dañada", requestKey: key() }, deps);
      expect(answer).toMatchObject({ ok: true, status: "pending", amountCents: 2000 });
      const [pending] = await refundsOf(order.orderId);
      expect(pending).toMatchObject({ status: "pending", attempts: 1 });
      // Culqi did make the refund; its answer was simply too late.
      expect(culqiRefundsOf(order.chargeId)).toHaveLength(1);
      // While it is pending, another refund of the same payment waits for it.
      expect(await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 100, reason: "Otro", requestKey: key() }, deps)).toMatchObject({
        ok: false,
        message: expect.stringContaining("en curso"),
      });

      const jobsAt = new Date(later.getTime() + 6 * 60_000);
      await runDueJobs(test.db, { now: jobsAt, only: ["refunds"], culqi: client, siteUrl });
      await runDueJobs(test.db, { now: new Date(jobsAt.getTime() + 60 * 60_000), only: ["refunds"], culqi: client, siteUrl });

      expect(await refundsOf(order.orderId)).toEqual([expect.objectContaining({ status: "succeeded", amountCents: 2000 })]);
      expect(culqi.refundRequests.filter((request) => request.body.charge_id === order.chargeId)).toHaveLength(1);
      expect(Number(culqi.charges.get(order.chargeId)!.amount_refunded)).toBe(2000);
      expect((await orderRow(order.orderId)).status).toBe("delivered");
      expect(await emailsTo("order-refunded", "lento@example.pe")).toHaveLength(1);
    } finally {
      culqi.ignoreIdempotencyKeys(false);
    }
  });

  it("reports Culqi's refusal clearly, gives nothing back and frees the amount", async () => {
    const order = await culqiPaidOrder("rechazo@example.pe");
    await deliver(order.orderId);
    culqi.failNextRefund("decline");
    expectConsoleError(/refused by culqi/);
    const answer = await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 1500, reason: "Prueba", requestKey: key() }, deps);
    expect(answer).toMatchObject({ ok: false, code: "declined", message: expect.stringContaining("rechazó el reembolso") });
    expect(answer.ok || answer.message).toContain("La devolución fue rechazada por el emisor");
    expect(await refundsOf(order.orderId)).toEqual([expect.objectContaining({ status: "failed" })]);
    expect(culqiRefundsOf(order.chargeId)).toEqual([]);
    expect(await orderRefundSummary(test.db, order.orderId)).toMatchObject({ refundedCents: 0, refundableCents: 5990 });
    expect(await emailsTo("order-refunded", "rechazo@example.pe")).toEqual([]);
  });

  it("keeps operaciones within the admin's limit; the admin may refund more and change the limit", async () => {
    const order = await sandboxPaidOrder("limite@example.pe", 4);
    await deliver(order.orderId);
    const overLimit = await refundOrder(
      test.db,
      operaciones,
      { orderId: order.orderId, amountCents: 20001, reason: "Devolución grande", requestKey: key() },
      deps,
    );
    expect(overLimit).toMatchObject({
      ok: false,
      code: "refused",
      message: "Operaciones puede reembolsar hasta S/ 200.00 por pedido en total. Pide a un administrador que apruebe y haga este reembolso.",
    });
    expect(await refundsOf(order.orderId)).toEqual([]);
    expect(
      await refundOrder(test.db, operaciones, { orderId: order.orderId, amountCents: 20000, reason: "Dentro del límite", requestKey: key() }, deps),
    ).toMatchObject({ ok: true });

    expect(await setLimit(1000)).toBe(true);
    expect(
      await refundOrder(test.db, operaciones, { orderId: order.orderId, amountCents: 1001, reason: "Sobre el nuevo límite", requestKey: key() }, deps),
    ).toMatchObject({ ok: false, message: expect.stringContaining("S/ 10.00") });
    expect(
      await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 3000, reason: "El admin no tiene límite", requestKey: key() }, deps),
    ).toMatchObject({ ok: true });
    await setLimit(20000);
  });

  // Issue 24, defect 5 (decision 0071): the limit was per refund, so 200 + 200 + 150 gave back S/ 550 without an admin.
  it("applies the operaciones limit to what staff refund on one order in total, and records the admin who approves more", async () => {
    const order = await sandboxPaidOrder("tres-veces@example.pe", 10);
    await deliver(order.orderId);
    const refund = (actor: StaffActor, amountCents: number) =>
      refundOrder(test.db, actor, { orderId: order.orderId, amountCents, reason: "Devolución por partes", requestKey: key() }, deps);

    expect(await refund(operaciones, 20000)).toMatchObject({ ok: true });
    const second = await refund(operaciones, 20000);
    expect(second).toMatchObject({
      ok: false,
      code: "refused",
      message:
        "Operaciones puede reembolsar hasta S/ 200.00 por pedido en total (en este pedido ya se devolvieron S/ 200.00). Pide a un administrador que apruebe y haga este reembolso.",
    });
    expect(await refund(operaciones, 1)).toMatchObject({ ok: false, code: "refused" });
    expect(await refund(admin, 15000)).toMatchObject({ ok: true });
    // Above the limit once, every further refund of the order needs an admin again.
    expect(await refund(operaciones, 100)).toMatchObject({ ok: false, code: "refused" });

    const rows = await refundsOf(order.orderId);
    expect(rows.map((row) => [row.amountCents, row.requestedBy, row.approvedBy])).toEqual([
      [20000, "operaciones@demo.pe", null],
      [15000, "admin@demo.pe", "admin@demo.pe"],
    ]);
    const audit = (await auditOf(order.orderId)).filter((entry) => entry.action === "order.refund");
    expect(audit.map((entry) => (entry.after as { approvedBy: string | null }).approvedBy)).toEqual([null, "admin@demo.pe"]);
    expect(await orderRefundSummary(test.db, order.orderId)).toMatchObject({ staffRefundedCents: 35000, limitCents: 20000 });
  });

  it("lets only one of two concurrent operaciones refunds through when together they pass the limit", async () => {
    // Paid with a cash code: its refunds are given back by hand (manual), so the first does not hold the
    // second back as "en curso" and only the limit can stop it.
    const order = await sandboxPaidOrder("limite-a-la-vez@example.pe", 10, "pay_code");
    await deliver(order.orderId);
    const answers = await Promise.all(
      ["A", "B"].map((name) =>
        refundOrder(test.db, operaciones, { orderId: order.orderId, amountCents: 15000, reason: `Mitad ${name}`, requestKey: key() }, deps),
      ),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok)).toEqual([
      expect.objectContaining({ code: "refused", message: expect.stringContaining("por pedido en total") }),
    ]);
    expect((await refundsOf(order.orderId)).map((row) => row.amountCents)).toEqual([15000]);
  });

  it("lets operaciones cancel with a full refund above the limit only when the admin's settings say so, writing nothing when refused", async () => {
    const small = await sandboxPaidOrder("cancela-poco@example.pe", 1);
    expect(await cancelOrderByStaff(test.db, operaciones, { orderId: small.orderId, reason: "Dentro del límite" }, deps)).toMatchObject({
      ok: true,
      refund: { ok: true, amountCents: 5990 },
    });

    const large = await sandboxPaidOrder("cancela-mucho@example.pe", 4);
    const refused = await cancelOrderByStaff(test.db, operaciones, { orderId: large.orderId, reason: "El cliente se mudó" }, deps);
    expect(refused).toMatchObject({ ok: false, code: "refused", message: expect.stringContaining("hasta S/ 200.00 por pedido en total") });
    expect((await orderRow(large.orderId)).status).toBe("paid");
    expect((await test.db.select().from(deliveries).where(eq(deliveries.orderId, large.orderId))).map((delivery) => delivery.status)).not.toContain(
      "cancelled",
    );
    expect(await refundsOf(large.orderId)).toEqual([]);
    expect(await auditOf(large.orderId)).toEqual([]);
    expect(await emailsTo("order-cancelled", "cancela-mucho@example.pe")).toEqual([]);

    expect(await setLimit(20000, true)).toBe(true);
    try {
      expect(await cancelOrderByStaff(test.db, operaciones, { orderId: large.orderId, reason: "El cliente se mudó" }, deps)).toMatchObject({
        ok: true,
        refund: { ok: true, amountCents: 23960 },
      });
      const [row] = await refundsOf(large.orderId);
      expect(row).toMatchObject({ requestedBy: "operaciones@demo.pe", approvedBy: "admin@demo.pe (ajustes: cancelación sin límite)" });
    } finally {
      await setLimit(20000, false);
    }
  });

  it("refuses a full refund of an order not yet dispatched, pointing to the cancellation", async () => {
    const order = await sandboxPaidOrder("todo@example.pe");
    const answer = await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: null, reason: "Todo", requestKey: key() }, deps);
    expect(answer).toMatchObject({ ok: false, message: expect.stringContaining("Cancelar pedido") });
    expect(await refundOrder(test.db, admin, { orderId: order.orderId, amountCents: 500, reason: "Parte", requestKey: key() }, deps)).toMatchObject({
      ok: true,
      status: "succeeded",
    });
    expect((await orderRow(order.orderId)).status).toBe("paid");
  });

  it("cancels a paid order before dispatch and refunds it in full, once however often it is submitted", async () => {
    const order = await culqiPaidOrder("cancela@example.pe");
    const first = await cancelOrderByStaff(test.db, operaciones, { orderId: order.orderId, reason: "El cliente ya no lo necesita" }, deps);
    expect(first).toMatchObject({ ok: true, alreadyCancelled: false, refund: { ok: true, status: "succeeded", amountCents: 5990 } });
    const again = await cancelOrderByStaff(test.db, operaciones, { orderId: order.orderId, reason: "El cliente ya no lo necesita" }, deps);
    expect(again).toMatchObject({ ok: true, alreadyCancelled: true });

    expect((await orderRow(order.orderId)).status).toBe("refunded");
    const history = await test.db
      .select({ from: orderStatusChanges.fromStatus, to: orderStatusChanges.toStatus, actor: orderStatusChanges.actor })
      .from(orderStatusChanges)
      .where(eq(orderStatusChanges.orderId, order.orderId))
      .orderBy(asc(orderStatusChanges.id));
    expect(history.slice(-2)).toEqual([
      { from: "paid", to: "cancelled", actor: "operaciones@demo.pe" },
      { from: "cancelled", to: "refunded", actor: "operaciones@demo.pe" },
    ]);
    expect((await test.db.select().from(deliveries).where(eq(deliveries.orderId, order.orderId))).map((delivery) => delivery.status)).toEqual(["cancelled"]);
    expect(culqiRefundsOf(order.chargeId)).toEqual([expect.objectContaining({ amount: 5990 })]);
    expect(await emailsTo("order-cancelled", "cancela@example.pe")).toHaveLength(1);
    expect(await emailsTo("order-refunded", "cancela@example.pe")).toHaveLength(1);
    const audit = await auditOf(order.orderId);
    expect(audit.map((entry) => entry.action)).toEqual(["order.cancel"]);
    expect(audit[0]).toMatchObject({
      actorEmail: "operaciones@demo.pe",
      before: expect.objectContaining({ status: "paid" }),
      after: expect.objectContaining({ status: "cancelled" }),
    });
  });

  it("refuses to cancel once a delivery has gone out, and an order already on its way", async () => {
    const order = await sandboxPaidOrder("salio@example.pe");
    await transitionOrder(test.db, order.orderId, "processing", { actor: "test", now: placedAt });
    await test.db.update(deliveries).set({ status: "shipped" }).where(eq(deliveries.orderId, order.orderId));
    const refused = await cancelOrderByStaff(test.db, admin, { orderId: order.orderId, reason: "Tarde" }, deps);
    expect(refused).toMatchObject({ ok: false, code: "refused", message: "Una entrega de este pedido ya salió a reparto: ya no se puede cancelar." });
    expect((await orderRow(order.orderId)).status).toBe("processing");

    await transitionOrder(test.db, order.orderId, "shipped", { actor: "test", now: placedAt });
    expect(await cancelOrderByStaff(test.db, admin, { orderId: order.orderId, reason: "Tarde" }, deps)).toMatchObject({
      ok: false,
      message: expect.stringContaining("«En camino»"),
    });
    expect(await refundsOf(order.orderId)).toEqual([]);
    expect(await emailsTo("order-cancelled", "salio@example.pe")).toEqual([]);
  });

  it("records the refund of a cash-code order as manual until staff mark it returned", async () => {
    const order = await sandboxPaidOrder("efectivo@example.pe", 1, "pay_code");
    const cancelled = await cancelOrderByStaff(test.db, admin, { orderId: order.orderId, reason: "Sin stock" }, deps);
    expect(cancelled).toMatchObject({ ok: true, refund: { status: "manual", amountCents: 5990 } });
    const [manual] = await refundsOf(order.orderId);
    expect(manual).toMatchObject({ status: "manual" });
    expect((await orderRow(order.orderId)).status).toBe("cancelled");
    expect(await emailsTo("order-refunded", "efectivo@example.pe")).toEqual([]);

    expect(await markManualRefundDone(test.db, admin, { orderId: order.orderId, refundId: manual!.id }, deps)).toMatchObject({ ok: true, status: "succeeded" });
    expect(await markManualRefundDone(test.db, admin, { orderId: order.orderId, refundId: manual!.id }, deps)).toMatchObject({ ok: true, status: "succeeded" });
    expect((await orderRow(order.orderId)).status).toBe("refunded");
    const emails = await emailsTo("order-refunded", "efectivo@example.pe");
    expect(emails).toHaveLength(1);
    expect(emails[0]!.text).toContain("por transferencia bancaria o en efectivo");
  });
});
