import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { formatSoles } from "@core/money";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { invoices, orders, payments, refunds, siteSettings } from "../db/schema";
import { liveSaleInvoiceOf } from "../invoices/index.server";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { canTransition, orderStatusLabel, type OrderStatus } from "../orders/index.server";
import type { CulqiClient } from "./culqi/client";
import { applyRefundToOrder, processRefund, refundChannel } from "./refunds";

/** Issue 10: what operaciones may refund on their own until the admin sets another limit (S/ 200.00). */
export const DEFAULT_OPERACIONES_REFUND_LIMIT_CENTS = 20_000;

/** Refund rows that hold money: asked for and not refused. */
const HOLDING_STATUSES = ["pending", "succeeded", "manual"];

export interface RefundDeps {
  now: Date;
  siteUrl: string;
  /** Culqi's client when it is configured; refunds of Culqi charges wait (pending) without it. */
  culqi: CulqiClient | null;
}

export type StaffRefundResult =
  | { ok: true; status: "succeeded" | "pending" | "manual"; refundId: string; amountCents: number }
  | { ok: false; code: "not_found" | "refused" | "declined"; message: string };

export const REFUND_ORDER_NOT_FOUND = "Pedido no encontrado";

type PaymentRow = typeof payments.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/** The provider's id of the money a payment took; a payment without one is named by its own id. */
const chargeReferenceOf = (payment: PaymentRow) => payment.providerReference ?? `payment:${payment.id}`;

/** The limit for operaciones, read fresh (never cached: the admin just changed it). */
export async function operacionesRefundLimitCents(db: DatabaseOrTransaction): Promise<number> {
  const [row] = await db.select({ cents: siteSettings.operacionesRefundLimitCents }).from(siteSettings).where(eq(siteSettings.id, 1));
  return row?.cents ?? DEFAULT_OPERACIONES_REFUND_LIMIT_CENTS;
}

/** Admin only (the route says so): a new limit, audited. Returns false when there is no settings row to change. */
export async function setOperacionesRefundLimit(db: Database, actor: StaffActor, cents: number, now: Date): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select({ cents: siteSettings.operacionesRefundLimitCents }).from(siteSettings).where(eq(siteSettings.id, 1)).for("update");
    if (!before) return false;
    await tx.update(siteSettings).set({ operacionesRefundLimitCents: cents, updatedAt: now }).where(eq(siteSettings.id, 1));
    await recordStaffAction(tx, actor, {
      action: "settings.refund_limit",
      entityType: "settings",
      entityId: "1",
      before: { operacionesRefundLimitCents: before.cents },
      after: { operacionesRefundLimitCents: cents },
    });
    return true;
  });
}

/** The order's settled payment (the most recent one, should there be several) and what it still can give back. */
async function refundablePayment(tx: DatabaseOrTransaction, orderId: string, lock: boolean) {
  const query = tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, "succeeded")))
    .orderBy(asc(payments.id));
  const settled = lock ? await query.for("update") : await query;
  const payment = settled.sort((a, b) => (b.settledAt?.getTime() ?? 0) - (a.settledAt?.getTime() ?? 0))[0];
  if (!payment) return null;
  const rows = await tx
    .select({ status: refunds.status, cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), eq(refunds.chargeReference, chargeReferenceOf(payment)), inArray(refunds.status, HOLDING_STATUSES)))
    .groupBy(refunds.status);
  const cents = (status: string) => Number(rows.find((row) => row.status === status)?.cents ?? 0);
  const refundedCents = cents("succeeded");
  const inProgressCents = cents("pending") + cents("manual");
  return {
    payment,
    capturedCents: payment.amountCents,
    refundedCents,
    inProgressCents,
    refundableCents: payment.amountCents - refundedCents - inProgressCents,
    pending: cents("pending") > 0,
  };
}

export interface OrderRefundSummary {
  orderId: string;
  orderNumber: string;
  orderStatus: string;
  customerEmail: string;
  provider: string | null;
  channel: "card" | "yape" | "manual" | "sandbox" | null;
  capturedCents: number;
  refundedCents: number;
  inProgressCents: number;
  refundableCents: number;
  limitCents: number;
  refunds: {
    id: string;
    amountCents: number;
    status: string;
    note: string | null;
    requestedBy: string | null;
    reason: string;
    lastError: string | null;
    createdAt: Date;
    refundedAt: Date | null;
  }[];
}

/** What the refund page shows: captured, refunded, in progress, refundable, and the order's refunds. */
export async function orderRefundSummary(db: Database, orderId: string): Promise<OrderRefundSummary | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const money = await refundablePayment(db, orderId, false);
  const rows = await db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(desc(refunds.createdAt));
  return {
    orderId,
    orderNumber: order.orderNumber,
    orderStatus: order.status,
    customerEmail: order.customerEmail,
    provider: money?.payment.provider ?? null,
    channel: money ? refundChannel(money.payment) : null,
    capturedCents: money?.capturedCents ?? 0,
    refundedCents: money?.refundedCents ?? 0,
    inProgressCents: money?.inProgressCents ?? 0,
    refundableCents: money?.refundableCents ?? 0,
    limitCents: await operacionesRefundLimitCents(db),
    refunds: rows.map((row) => ({
      id: row.id,
      amountCents: row.amountCents,
      status: row.status,
      note: row.note,
      requestedBy: row.requestedBy,
      reason: row.reason,
      lastError: row.lastError,
      createdAt: row.createdAt,
      refundedAt: row.refundedAt,
    })),
  };
}

export type RecordedStaffRefund = { ok: true; refund: typeof refunds.$inferSelect } | { ok: false; nothingToRecord: boolean; message: string };

/**
 * Writes a staff refund's row inside the caller's transaction, which already holds the order's lock
 * (decision 0025: order → payment → refund). `amountCents: null` is everything still refundable.
 * The row is `pending` (the provider is called after the commit, outside any transaction) or
 * `manual` for money paid offline. The checks run under the locks, so two requests for the last
 * remaining soles cannot both pass: the second sees the first's row.
 */
export async function recordStaffRefund(
  tx: DatabaseOrTransaction,
  actor: StaffActor,
  input: {
    order: OrderRow;
    amountCents: number | null;
    note: string;
    requestKey: string;
    reason: "staff_refund" | "order_cancelled";
    applyLimit: boolean;
    now: Date;
  },
): Promise<RecordedStaffRefund> {
  const money = await refundablePayment(tx, input.order.id, true);
  if (!money || money.capturedCents <= 0) return { ok: false, nothingToRecord: true, message: "Este pedido no tiene un pago cobrado que se pueda reembolsar." };
  if (money.pending)
    return { ok: false, nothingToRecord: true, message: "Hay un reembolso de este pago en curso. Espera a que se confirme antes de pedir otro." };
  if (money.refundableCents <= 0) return { ok: false, nothingToRecord: true, message: "Este pedido ya no tiene saldo por reembolsar." };
  const amount = input.amountCents ?? money.refundableCents;
  if (amount <= 0) return { ok: false, nothingToRecord: false, message: "Ingresa un monto mayor que cero." };
  if (amount > money.refundableCents)
    return { ok: false, nothingToRecord: false, message: `El monto supera lo que queda por reembolsar (${formatSoles(money.refundableCents)}).` };
  if (input.applyLimit && actor.role === "operaciones") {
    const limit = await operacionesRefundLimitCents(tx);
    if (amount > limit)
      return {
        ok: false,
        nothingToRecord: false,
        message: `Operaciones puede reembolsar hasta ${formatSoles(limit)} por vez. Pide a un administrador que haga este reembolso.`,
      };
  }
  // A refund that gives back all that is left must end the order as `refunded`, which the order
  // machine allows only once it is delivered or cancelled (decisions.md, Orders).
  const status = input.order.status as OrderStatus;
  if (amount === money.refundableCents && money.inProgressCents === 0 && !canTransition(status, "refunded") && status !== "refunded") {
    return {
      ok: false,
      nothingToRecord: false,
      message:
        status === "shipped"
          ? "El pedido está en camino: puedes devolver una parte ahora, o el total cuando se haya entregado."
          : `Un pedido «${orderStatusLabel(status)}» que aún no sale se devuelve completo con «Cancelar pedido». Aquí puedes devolver solo una parte.`,
    };
  }
  const [invoice] = await tx.select({ id: invoices.id }).from(invoices).where(liveSaleInvoiceOf(input.order.id));
  const refund = await insertRefund(tx, money.payment, {
    orderId: input.order.id,
    amountCents: amount,
    reason: input.reason,
    requestKey: input.requestKey,
    requestedBy: actor.email,
    note: input.note,
    invoiceId: invoice?.id ?? null,
    now: input.now,
  });
  return { ok: true, refund };
}

/** A refund row of a settled payment: `pending` for the provider's API, `manual` for money paid offline. */
async function insertRefund(
  tx: DatabaseOrTransaction,
  payment: PaymentRow,
  input: { orderId: string; amountCents: number; reason: string; requestKey: string; requestedBy: string; note: string; invoiceId: string | null; now: Date },
) {
  const manual = refundChannel(payment) === "manual";
  const { now, ...row } = input;
  const [refund] = await tx
    .insert(refunds)
    .values({
      ...row,
      paymentId: payment.id,
      provider: payment.provider,
      chargeReference: chargeReferenceOf(payment),
      status: manual ? "manual" : "pending",
      lastError: manual ? "Pago en efectivo o con código: devolver por transferencia y marcarlo como devuelto" : null,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return refund!;
}

export type RecordedGarantiaRefund =
  | { ok: true; refund: typeof refunds.$inferSelect }
  /** `busy`: another refund of the same charge is on its way; try again once it is through. */
  | { ok: false; reason: "busy" | "not_refundable"; message: string };

/**
 * A returned bidón garantía given back through the payment that took it (decision 0075), written
 * in the caller's transaction, which holds the order's lock (decision 0025: order → payment →
 * refund). Like a staff refund it is a `refunds` row (`garantia_return`, pending or manual for money
 * paid offline), called at the provider after the commit and retried by the refunds job; its nota de
 * crédito is the garantías job's, so the row names no invoice. Keyed by `requestKey`.
 */
export async function recordGarantiaRefund(
  tx: DatabaseOrTransaction,
  input: { order: OrderRow; amountCents: number; requestKey: string; requestedBy: string; note: string; now: Date },
): Promise<RecordedGarantiaRefund> {
  const [same] = await tx.select().from(refunds).where(eq(refunds.requestKey, input.requestKey));
  if (same) return { ok: true, refund: same };
  const money = await refundablePayment(tx, input.order.id, true);
  if (!money || money.capturedCents <= 0)
    return { ok: false, reason: "not_refundable", message: "El pedido no tiene un pago cobrado por donde devolver la garantía." };
  if (money.pending) return { ok: false, reason: "busy", message: "Hay otro reembolso de este pago en curso; se intentará de nuevo." };
  if (money.refundableCents < input.amountCents)
    return {
      ok: false,
      reason: "not_refundable",
      message: `Al pago del pedido le quedan ${formatSoles(money.refundableCents)} por devolver, menos que la garantía (${formatSoles(input.amountCents)}).`,
    };
  const refund = await insertRefund(tx, money.payment, {
    orderId: input.order.id,
    amountCents: input.amountCents,
    reason: "garantia_return",
    requestKey: input.requestKey,
    requestedBy: input.requestedBy,
    note: input.note,
    // Its nota de crédito is the garantías job's (decision 0075).
    invoiceId: null,
    now: input.now,
  });
  return { ok: true, refund };
}

/** Calls the provider for a recorded staff refund (outside any transaction) and says how it ended. */
export async function settleStaffRefund(db: Database, refundId: string, deps: RefundDeps): Promise<StaffRefundResult> {
  const attempt = await processRefund(db, deps.culqi, refundId, deps);
  const [row] = await db.select().from(refunds).where(eq(refunds.id, refundId));
  if (!row) return { ok: false, code: "not_found", message: REFUND_ORDER_NOT_FOUND };
  if (attempt === "declined" || row.status === "failed") return declined(row);
  return {
    ok: true,
    status: row.status === "succeeded" ? "succeeded" : row.status === "manual" ? "manual" : "pending",
    refundId: row.id,
    amountCents: row.amountCents,
  };
}

const declined = (row: typeof refunds.$inferSelect): StaffRefundResult => ({
  ok: false,
  code: "declined",
  message: `El proveedor de pagos rechazó el reembolso (${row.lastError ?? "sin detalle"}). No se devolvió dinero; revisa el pago antes de intentarlo de nuevo.`,
});

async function existingRequest(db: Database, orderId: string, requestKey: string, deps: RefundDeps): Promise<StaffRefundResult | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.requestKey, requestKey));
  if (!row) return null;
  if (row.orderId !== orderId) return { ok: false, code: "refused", message: "Esta solicitud no corresponde a este pedido. Recarga la página." };
  if (row.status === "pending") return settleStaffRefund(db, row.id, deps);
  if (row.status === "failed") return declined(row);
  return {
    ok: true,
    status: row.status === "succeeded" ? "succeeded" : row.status === "manual" ? "manual" : "pending",
    refundId: row.id,
    amountCents: row.amountCents,
  };
}

/**
 * Issue 10, "Reembolsar": gives back all (`amountCents: null`) or part of what an order's payment
 * captured, through the provider that took the money. The request key comes from the staff form:
 * a double click or a retried POST finds its refund and changes nothing twice. The row is written
 * `pending` (with the audit entry) in one transaction before the provider is called; a provider
 * that does not answer leaves it pending for the refunds job, which reconciles it without doubling.
 */
export async function refundOrder(
  db: Database,
  actor: StaffActor,
  input: { orderId: string; amountCents: number | null; reason: string; requestKey: string },
  deps: RefundDeps,
): Promise<StaffRefundResult> {
  const replay = await existingRequest(db, input.orderId, input.requestKey, deps);
  if (replay) return replay;
  const recorded = await inTransaction(db, async (tx): Promise<RecordedStaffRefund | "not_found" | "replay"> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) return "not_found";
    // Under the order's lock: a concurrent submit of the same form committed its row first.
    const [same] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.requestKey, input.requestKey));
    if (same) return "replay";
    const before = await refundablePayment(tx, order.id, false);
    const result = await recordStaffRefund(tx, actor, {
      order,
      amountCents: input.amountCents,
      note: input.reason,
      requestKey: input.requestKey,
      reason: "staff_refund",
      applyLimit: true,
      now: deps.now,
    });
    if (!result.ok) return result;
    await recordStaffAction(tx, actor, {
      action: "order.refund",
      entityType: "order",
      entityId: order.id,
      before: { status: order.status, refundedCents: before?.refundedCents ?? 0, inProgressCents: before?.inProgressCents ?? 0 },
      after: {
        refundId: result.refund.id,
        amountCents: result.refund.amountCents,
        refundStatus: result.refund.status,
        provider: result.refund.provider,
        reason: input.reason,
      },
    });
    return result;
  });
  if (recorded === "not_found") return { ok: false, code: "not_found", message: REFUND_ORDER_NOT_FOUND };
  if (recorded === "replay") return (await existingRequest(db, input.orderId, input.requestKey, deps))!;
  if (!recorded.ok) return { ok: false, code: "refused", message: recorded.message };
  if (recorded.refund.status === "manual") return { ok: true, status: "manual", refundId: recorded.refund.id, amountCents: recorded.refund.amountCents };
  return settleStaffRefund(db, recorded.refund.id, deps);
}

/**
 * Money paid offline (cash, a Yape code) goes back by hand; once staff have returned it they mark
 * the refund done here: the order follows (refunded when it is all back) and the customer is told.
 * Marking twice changes nothing the second time.
 */
export async function markManualRefundDone(
  db: Database,
  actor: StaffActor,
  input: { orderId: string; refundId: string },
  deps: Omit<RefundDeps, "culqi">,
): Promise<StaffRefundResult> {
  return inTransaction(db, async (tx): Promise<StaffRefundResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) return { ok: false, code: "not_found", message: REFUND_ORDER_NOT_FOUND };
    const [refund] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.id, input.refundId), eq(refunds.orderId, order.id)))
      .for("update");
    if (!refund) return { ok: false, code: "not_found", message: "Reembolso no encontrado" };
    if (refund.status === "succeeded") return { ok: true, status: "succeeded", refundId: refund.id, amountCents: refund.amountCents };
    if (refund.status !== "manual") return { ok: false, code: "refused", message: "Este reembolso no se devuelve a mano." };
    const [done] = await tx
      .update(refunds)
      .set({ status: "succeeded", refundedAt: deps.now, lastError: null, updatedAt: deps.now, requestedBy: refund.requestedBy ?? actor.email })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "manual")))
      .returning();
    await applyRefundToOrder(tx, order, done!, deps);
    await recordStaffAction(tx, actor, {
      action: "order.refund_manual_done",
      entityType: "order",
      entityId: order.id,
      before: { refundId: refund.id, refundStatus: "manual", orderStatus: order.status },
      after: { refundId: refund.id, refundStatus: "succeeded", amountCents: refund.amountCents },
    });
    return { ok: true, status: "succeeded", refundId: refund.id, amountCents: refund.amountCents };
  });
}
