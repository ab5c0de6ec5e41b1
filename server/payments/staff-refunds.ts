import { may } from "@core/staff-permissions";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { formatSoles } from "@core/money";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { changeSiteSettings, readSiteSettingsFor } from "../content/index.server";
import type { Database } from "../db/client";
import { garantiaEntries, invoices, orders, payments, refunds, staffActions } from "../db/schema";
import { liveSaleInvoiceOf } from "../invoices/index.server";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { canTransition, orderStatusLabel, type OrderStatus } from "../orders/index.server";
import type { CulqiClient } from "./culqi/client";
import type { PaymentOrderSteps } from "./order-steps";
import { processRefund, refundChannel } from "./refunds";

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

/**
 * What operaciones may give back on their own (decision 0071): `limitCents` bounds the total of the
 * staff refunds of one order (earlier ones included); `mayCancelAnyAmount` lets them cancel an order
 * before dispatch with its full refund whatever it is. Read fresh (never cached: the admin just
 * changed it).
 */
export interface OperacionesRefundPolicy {
  limitCents: number;
  mayCancelAnyAmount: boolean;
}

export async function operacionesRefundPolicy(db: DatabaseOrTransaction): Promise<OperacionesRefundPolicy> {
  const settings = await readSiteSettingsFor(db, ["operacionesRefundLimitCents", "operacionesMayCancelAnyAmount"]);
  return { limitCents: settings.operacionesRefundLimitCents, mayCancelAnyAmount: settings.operacionesMayCancelAnyAmount };
}

export async function operacionesRefundLimitCents(db: DatabaseOrTransaction): Promise<number> {
  return (await operacionesRefundPolicy(db)).limitCents;
}

/**
 * Admin only (the route says so; the actor's role is checked here too): a new policy, audited.
 * Returns false when there is no settings row to change.
 */
export async function setOperacionesRefundPolicy(db: Database, actor: StaffActor, policy: OperacionesRefundPolicy, now: Date): Promise<boolean> {
  if (!may(actor.role, "ajustes.gestionar")) return false;
  return inTransaction(db, async (tx) => {
    const after = { operacionesRefundLimitCents: policy.limitCents, operacionesMayCancelAnyAmount: policy.mayCancelAnyAmount };
    const before = await changeSiteSettings(tx, after, now);
    if (!before) return false;
    await recordStaffAction(tx, actor, {
      action: "settings.refund_limit",
      entityType: "settings",
      entityId: "1",
      before,
      after,
    });
    return true;
  });
}

/** Refunds that count against the operaciones limit: the ones staff ask for, while they hold money. */
const STAFF_REFUND_REASONS = ["staff_refund", "order_cancelled"];

/** What staff gave back, or are giving back, on one order over all its payments; read under the order's lock. */
async function staffRefundedOnOrderCents(tx: DatabaseOrTransaction, orderId: string): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), inArray(refunds.reason, STAFF_REFUND_REASONS), inArray(refunds.status, HOLDING_STATUSES)));
  return Number(row?.cents ?? 0);
}

/** The admin who last let operaciones cancel any amount: the approver of a cancellation above the limit. */
async function cancelAnyAmountApprover(tx: DatabaseOrTransaction): Promise<string> {
  const [row] = await tx
    .select({ email: staffActions.actorEmail })
    .from(staffActions)
    .where(and(eq(staffActions.action, "settings.refund_limit"), sql`(${staffActions.after} ->> 'operacionesMayCancelAnyAmount')::boolean`))
    .orderBy(desc(staffActions.id))
    .limit(1);
  return `${row?.email ?? "administración"} (ajustes: cancelación sin límite)`;
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
  const garantiaHeldCents = await garantiaStillHeldCents(tx, orderId, payment);
  return {
    payment,
    capturedCents: payment.amountCents,
    refundedCents,
    inProgressCents,
    garantiaHeldCents,
    refundableCents: Math.max(0, payment.amountCents - refundedCents - inProgressCents - garantiaHeldCents),
    pending: cents("pending") > 0,
  };
}

/**
 * The part of the payment that is the order's bidón garantía and has not gone back through it
 * (decision 0075): the order's held garantía less its `garantia_return` refunds. A staff refund
 * never gives it back: it returns with the bidones (the garantías job's refund, a credit) or was
 * returned by hand (`returned_by_hand`, paid outside the provider), and refunding it here as well
 * would pay it twice.
 */
async function garantiaStillHeldCents(tx: DatabaseOrTransaction, orderId: string, payment: PaymentRow): Promise<number> {
  const [held] = await tx
    .select({ cents: sql<number>`coalesce(sum(${garantiaEntries.amountCents}), 0)::int` })
    .from(garantiaEntries)
    .where(and(eq(garantiaEntries.orderId, orderId), eq(garantiaEntries.kind, "held")));
  const heldCents = Number(held?.cents ?? 0);
  if (heldCents === 0) return 0;
  const [returned] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(
      and(
        eq(refunds.paymentId, payment.id),
        eq(refunds.reason, "garantia_return"),
        eq(refunds.chargeReference, chargeReferenceOf(payment)),
        inArray(refunds.status, HOLDING_STATUSES),
      ),
    );
  return Math.max(0, heldCents - Number(returned?.cents ?? 0));
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
  /** The bidón garantía the payment still holds: never part of a staff refund (decision 0075). */
  garantiaHeldCents: number;
  refundableCents: number;
  limitCents: number;
  /** What staff gave back (or are giving back) on this order so far: the part of the limit already used. */
  staffRefundedCents: number;
  /** Whether operaciones may cancel this order with its full refund whatever the amount (the admin's setting). */
  mayCancelAnyAmount: boolean;
  refunds: {
    id: string;
    amountCents: number;
    status: string;
    note: string | null;
    requestedBy: string | null;
    approvedBy: string | null;
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
  const policy = await operacionesRefundPolicy(db);
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
    garantiaHeldCents: money?.garantiaHeldCents ?? 0,
    refundableCents: money?.refundableCents ?? 0,
    limitCents: policy.limitCents,
    mayCancelAnyAmount: policy.mayCancelAnyAmount,
    staffRefundedCents: await staffRefundedOnOrderCents(db, orderId),
    refunds: rows.map((row) => ({
      id: row.id,
      amountCents: row.amountCents,
      status: row.status,
      note: row.note,
      requestedBy: row.requestedBy,
      approvedBy: row.approvedBy,
      reason: row.reason,
      lastError: row.lastError,
      createdAt: row.createdAt,
      refundedAt: row.refundedAt,
    })),
  };
}

export type RecordedStaffRefund = { ok: true; refund: typeof refunds.$inferSelect } | StaffRefundRefusal;
type StaffRefundRefusal = { ok: false; nothingToRecord: boolean; message: string };

export interface StaffRefundRequest {
  order: OrderRow;
  amountCents: number | null;
  note: string;
  requestKey: string;
  reason: "staff_refund" | "order_cancelled";
  /** Whether the operaciones limit bounds this refund (a cancellation when the admin's settings say it does). */
  applyLimit: boolean;
  now: Date;
}

/** A staff refund checked and ready to write: nothing of it is written yet. */
export interface PlannedStaffRefund {
  request: StaffRefundRequest;
  payment: PaymentRow;
  amountCents: number;
  approvedBy: string | null;
}

/**
 * Every check of a staff refund, with nothing written (decision 0071: authorise first, write
 * after). The caller's transaction holds the order's lock (decision 0025: order → payment →
 * refund), so the sums read here cannot change before the write: two requests for the last
 * remaining soles, or two that together pass the operaciones limit, cannot both pass. The limit
 * bounds what staff refund on the order in total; an admin may go above it and is recorded as
 * its approver.
 */
export async function planStaffRefund(
  tx: DatabaseOrTransaction,
  actor: StaffActor,
  input: StaffRefundRequest,
): Promise<{ ok: true; plan: PlannedStaffRefund } | StaffRefundRefusal> {
  const money = await refundablePayment(tx, input.order.id, true);
  if (!money || money.capturedCents <= 0) return { ok: false, nothingToRecord: true, message: "Este pedido no tiene un pago cobrado que se pueda reembolsar." };
  if (money.pending)
    return { ok: false, nothingToRecord: true, message: "Hay un reembolso de este pago en curso. Espera a que se confirme antes de pedir otro." };
  if (money.refundableCents <= 0) return { ok: false, nothingToRecord: true, message: "Este pedido ya no tiene saldo por reembolsar." };
  const amount = input.amountCents ?? money.refundableCents;
  if (amount <= 0) return { ok: false, nothingToRecord: false, message: "Ingresa un monto mayor que cero." };
  if (amount > money.refundableCents)
    return { ok: false, nothingToRecord: false, message: `El monto supera lo que queda por reembolsar (${formatSoles(money.refundableCents)}).` };
  const { limitCents } = await operacionesRefundPolicy(tx);
  const earlier = await staffRefundedOnOrderCents(tx, input.order.id);
  let approvedBy: string | null = null;
  if (earlier + amount > limitCents) {
    if (may(actor.role, "reembolsos.sin-limite")) approvedBy = actor.email;
    else if (!input.applyLimit) approvedBy = await cancelAnyAmountApprover(tx);
    else
      return {
        ok: false,
        nothingToRecord: false,
        message:
          `Operaciones puede reembolsar hasta ${formatSoles(limitCents)} por pedido en total` +
          (earlier > 0 ? ` (en este pedido ya se devolvieron ${formatSoles(earlier)})` : "") +
          ". Pide a un administrador que apruebe y haga este reembolso.",
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
  return { ok: true, plan: { request: input, payment: money.payment, amountCents: amount, approvedBy } };
}

/**
 * Writes a planned staff refund's row inside the caller's transaction, which still holds the locks
 * the plan was made under. The row is `pending` (the provider is called after the commit, outside
 * any transaction) or `manual` for money paid offline.
 */
export async function writeStaffRefund(tx: DatabaseOrTransaction, actor: StaffActor, plan: PlannedStaffRefund): Promise<typeof refunds.$inferSelect> {
  const { request, payment } = plan;
  const [invoice] = await tx.select({ id: invoices.id }).from(invoices).where(liveSaleInvoiceOf(request.order.id));
  return insertRefund(tx, payment, {
    orderId: request.order.id,
    amountCents: plan.amountCents,
    reason: request.reason,
    requestKey: request.requestKey,
    requestedBy: actor.email,
    approvedBy: plan.approvedBy,
    note: request.note,
    invoiceId: invoice?.id ?? null,
    now: request.now,
  });
}

/** A refund row of a settled payment: `pending` for the provider's API, `manual` for money paid offline. */
async function insertRefund(
  tx: DatabaseOrTransaction,
  payment: PaymentRow,
  input: {
    orderId: string;
    amountCents: number;
    reason: string;
    requestKey: string;
    requestedBy: string;
    approvedBy?: string | null;
    note: string;
    invoiceId: string | null;
    now: Date;
  },
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

/** `planStaffRefund` then `writeStaffRefund`, for a caller with nothing to write in between. */
export async function recordStaffRefund(tx: DatabaseOrTransaction, actor: StaffActor, input: StaffRefundRequest): Promise<RecordedStaffRefund> {
  const planned = await planStaffRefund(tx, actor, input);
  if (!planned.ok) return planned;
  return { ok: true, refund: await writeStaffRefund(tx, actor, planned.plan) };
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
  // The garantía's own money is what this refund gives back: kept out of staff refunds, not out of this one.
  const left = money.refundableCents + money.garantiaHeldCents;
  if (left < input.amountCents)
    return {
      ok: false,
      reason: "not_refundable",
      message: `Al pago del pedido le quedan ${formatSoles(left)} por devolver, menos que la garantía (${formatSoles(input.amountCents)}).`,
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
export async function settleStaffRefund(db: Database, refundId: string, deps: RefundDeps, orderSteps: PaymentOrderSteps): Promise<StaffRefundResult> {
  const attempt = await processRefund(db, deps.culqi, refundId, deps, orderSteps);
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

async function existingRequest(
  db: Database,
  orderId: string,
  requestKey: string,
  deps: RefundDeps,
  orderSteps: PaymentOrderSteps,
): Promise<StaffRefundResult | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.requestKey, requestKey));
  if (!row) return null;
  if (row.orderId !== orderId) return { ok: false, code: "refused", message: "Esta solicitud no corresponde a este pedido. Recarga la página." };
  if (row.status === "pending") return settleStaffRefund(db, row.id, deps, orderSteps);
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
  orderSteps: PaymentOrderSteps,
): Promise<StaffRefundResult> {
  // The refund page is operaciones' and the admin's (the route says so); checked here too, before anything.
  if (!may(actor.role, "reembolsos.emitir")) return { ok: false, code: "not_found", message: REFUND_ORDER_NOT_FOUND };
  const replay = await existingRequest(db, input.orderId, input.requestKey, deps, orderSteps);
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
        approvedBy: result.refund.approvedBy,
      },
    });
    return result;
  });
  if (recorded === "not_found") return { ok: false, code: "not_found", message: REFUND_ORDER_NOT_FOUND };
  if (recorded === "replay") return (await existingRequest(db, input.orderId, input.requestKey, deps, orderSteps))!;
  if (!recorded.ok) return { ok: false, code: "refused", message: recorded.message };
  if (recorded.refund.status === "manual") return { ok: true, status: "manual", refundId: recorded.refund.id, amountCents: recorded.refund.amountCents };
  return settleStaffRefund(db, recorded.refund.id, deps, orderSteps);
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
  orderSteps: PaymentOrderSteps,
): Promise<StaffRefundResult> {
  if (!may(actor.role, "reembolsos.emitir")) return { ok: false, code: "not_found", message: REFUND_ORDER_NOT_FOUND };
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
    await orderSteps.refunded(tx, order, done!, deps);
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
