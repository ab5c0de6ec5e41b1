import { timingSafeEqual } from "node:crypto";
import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orders, payments, processedWebhookEvents } from "../../db/schema";
import { settleConfirmedCharge, type ChargeSettlement } from "../late-payments";
import type { PaymentOrderSteps } from "../order-steps";
import { processRefund } from "../refunds";
import { PaymentNotFoundError, recordPaymentCodeIssued, recordPaymentFailed } from "../settle";
import { inTransaction } from "../../db/transaction";
import { lockAndCountUnpaidHolds, unpaidHoldsFull } from "../../orders/index.server";
import { CulqiUnavailableError, type Authentication3DS, type CulqiClient, type CulqiCharge, type CulqiOrder } from "./client";

/** Issue 38: a code holds its order's delivery place for hours, not a day. */
export const CULQI_CODE_HOURS = 6;
const TRY_AGAIN = "Hubo un problema procesando tu pago. Intenta nuevamente.";

async function paymentWithOrder(db: Database, paymentId: string) {
  const [row] = await db
    .select({ payment: payments, order: orders })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.id, paymentId), eq(payments.provider, "culqi")));
  return row ?? null;
}

export type CulqiChargeOutcome =
  | { outcome: "paid"; orderId: string }
  | { outcome: "review"; orderId: string }
  | { outcome: "declined"; orderId: string; message: string }
  | { outcome: "unavailable"; orderId: string; message: string }
  | { outcome: "not_payable"; message: string };

const LATE_REFUND = "Tu pago se confirmó cuando este pedido ya había vencido. Te devolveremos el monto automáticamente y te avisaremos por correo.";

/**
 * Charges the token the Culqi checkout returned (card `tkn_` or Yape `ype_`). Paid only on 201 +
 * venta_exitosa; a 3DS review goes back to the browser, which runs Culqi3DS and charges the same
 * token again with `authentication3DS`; a decline fails the order with Culqi's message for the
 * customer. A timeout leaves the attempt open: Culqi's webhook settles it if the
 * charge did happen, since the charge carries our payment id in its metadata.
 *
 * A double click posts the same token twice, possibly to two server processes: Culqi charges the
 * first and refuses the reused token, and that refusal must not fail a payment the first is
 * settling. So only the holder of the payment's charge claim (a column on the payment row, taken
 * by one conditional UPDATE: decision 0071) calls Culqi; another request waits until the claim
 * ends and answers from what the first attempt left (paid, failed) or, if the payment is still
 * open (a 3DS review, Culqi away), takes the claim and tries itself.
 */
export async function chargeCulqiToken(db: Database, client: CulqiClient, input: ChargeInput, orderSteps: PaymentOrderSteps): Promise<CulqiChargeOutcome> {
  const started = Date.now();
  for (;;) {
    // The request's clock moves on while it waits, so a crashed holder's claim runs out for it too.
    const now = new Date(input.now.getTime() + (Date.now() - started));
    const claim = await claimCharge(db, input.paymentId, now);
    if (claim === "claimed") {
      try {
        return await chargeCulqiTokenNow(db, client, input, orderSteps);
      } finally {
        await releaseCharge(db, input.paymentId);
      }
    }
    // Not open (paid, failed, expired, unknown): answered from the row, Culqi is not called.
    if (claim === "not_open") return chargeCulqiTokenNow(db, client, input, orderSteps, { mayCharge: false });
    await new Promise((resolve) => setTimeout(resolve, CHARGE_WAIT_STEP_MS));
  }
}

type ChargeInput = { paymentId: string; token: string; now: Date; siteUrl: string; deviceFingerprint?: string; authentication3DS?: Authentication3DS };

/** Longer than Culqi's answer may take (its client's 15 s timeout) and the settlement after it. */
export const CHARGE_CLAIM_MS = 30_000;
const CHARGE_WAIT_STEP_MS = 100;

/**
 * Takes the payment's charge claim: one UPDATE of the payment row alone (decision 0025: it holds no
 * other lock), so of two requests at once, in one process or two, exactly one gets it.
 */
async function claimCharge(db: Database, paymentId: string, now: Date): Promise<"claimed" | "busy" | "not_open"> {
  const [claimed] = await db
    .update(payments)
    .set({ chargeClaimedUntil: new Date(now.getTime() + CHARGE_CLAIM_MS) })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.provider, "culqi"),
        eq(payments.status, "created"),
        or(isNull(payments.chargeClaimedUntil), lte(payments.chargeClaimedUntil, now)),
      ),
    )
    .returning({ id: payments.id });
  if (claimed) return "claimed";
  const [row] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.provider, "culqi")));
  return row?.status === "created" ? "busy" : "not_open";
}

/** Ends the claim; should this fail, the claim runs out on its own after CHARGE_CLAIM_MS. */
async function releaseCharge(db: Database, paymentId: string): Promise<void> {
  await db.update(payments).set({ chargeClaimedUntil: null }).where(eq(payments.id, paymentId));
}

async function chargeCulqiTokenNow(
  db: Database,
  client: CulqiClient,
  input: ChargeInput,
  orderSteps: PaymentOrderSteps,
  options = { mayCharge: true },
): Promise<CulqiChargeOutcome> {
  const row = await paymentWithOrder(db, input.paymentId);
  if (!row) return { outcome: "not_payable", message: "No encontramos este pago." };
  const { payment, order } = row;
  if (payment.status === "succeeded") return { outcome: "paid", orderId: order.id };
  if (!options.mayCharge || payment.status !== "created" || (payment.expiresAt && payment.expiresAt <= input.now)) {
    return { outcome: "not_payable", message: "Este pedido ya no se puede pagar. Vuelve al carrito para generar uno nuevo." };
  }
  const answer = await client.createCharge({
    amount: payment.amountCents,
    email: order.customerEmail,
    sourceId: input.token,
    description: `Pedido ${order.orderNumber}`,
    metadata: { order_id: order.id, payment_id: payment.id, order_number: order.orderNumber },
    deviceFingerprint: input.deviceFingerprint,
    authentication3DS: input.authentication3DS,
  });
  switch (answer.kind) {
    case "paid": {
      // The order may have expired while the bank checked the card (3DS) or Yape waited for its
      // code: the late-settlement rule decides between settling it and giving the money back.
      const settled = await settleCharge(db, client, answer.charge, payment.id, { now: input.now, siteUrl: input.siteUrl, actor: "culqi" }, orderSteps);
      if (settled.kind === "refund") return { outcome: "not_payable", message: LATE_REFUND };
      return { outcome: "paid", orderId: order.id };
    }
    case "review":
      return { outcome: "review", orderId: order.id };
    case "declined":
      await recordPaymentFailed(db, payment.id, { now: input.now, actor: "culqi", message: answer.userMessage }, orderSteps);
      return { outcome: "declined", orderId: order.id, message: answer.userMessage };
    case "unavailable":
      return { outcome: "unavailable", orderId: order.id, message: TRY_AGAIN };
  }
}

/**
 * Banca móvil, agentes and billeteras need a Culqi order created first (payments.md A.6). One per
 * payment attempt: a repeated call returns the one already created.
 */
export async function createCulqiOrderForPayment(db: Database, client: CulqiClient, input: { paymentId: string; now: Date }): Promise<string | null> {
  const row = await paymentWithOrder(db, input.paymentId);
  if (!row || row.payment.status === "succeeded" || row.payment.status === "failed") return null;
  if (row.payment.providerReference?.startsWith("ord_")) return row.payment.providerReference;
  const { order } = row;
  // Issue 38: a phone or address holding the most unpaid orders allowed gets no code to hold one
  // more; Culqi's checkout then offers cards and Yape, paid at once.
  const holds = await inTransaction(db, (tx) =>
    lockAndCountUnpaidHolds(
      tx,
      { phone: order.customerPhone, districtId: order.districtId, address: order.address },
      { now: input.now, excludeOrderId: order.id },
    ),
  );
  if (unpaidHoldsFull(holds)) return null;
  const created = await client.createOrder({
    amount: row.payment.amountCents,
    description: `Pedido ${order.orderNumber}`,
    orderNumber: order.orderNumber,
    client: { first_name: order.customerFirstName, last_name: order.customerLastName, email: order.customerEmail, phone_number: `+51${order.customerPhone}` },
    expiresAt: new Date(input.now.getTime() + CULQI_CODE_HOURS * 3_600_000),
    metadata: { order_id: order.id, payment_id: row.payment.id },
  });
  await db.update(payments).set({ providerReference: created.id, updatedAt: input.now }).where(eq(payments.id, row.payment.id));
  return created.id;
}

/**
 * Culqi's checkout could not load in the customer's browser (spec §8, "Widget missing"): the shop
 * confirms the payment's Culqi order itself, so the customer can still pay with a code from banca
 * móvil, a billetera or an agente. Repeat-safe: a confirmed order is only read again.
 * Returns the code, or null when Culqi cannot give one now.
 */
export async function issueCulqiCodeWithoutCheckout(
  db: Database,
  client: CulqiClient,
  input: { paymentId: string; now: Date; publicKey: string },
  orderSteps: PaymentOrderSteps,
) {
  const reference = await createCulqiOrderForPayment(db, client, input).catch((error: unknown) => {
    if (error instanceof CulqiUnavailableError) return null;
    throw error;
  });
  if (!reference) return null;
  // A refusal means the order is no longer `created` (confirmed already, perhaps in another tab):
  // the read below finds its code either way.
  await client.confirmOrder(reference, input.publicKey).catch((error: unknown) => {
    if (error instanceof CulqiUnavailableError) return null;
    throw error;
  });
  const recorded = await recordCulqiOrderCode(db, client, input, orderSteps);
  return recorded?.code ?? null;
}

/** The customer confirmed a Culqi order in the checkout: keep its payment code and wait for payment. */
export async function recordCulqiOrderCode(db: Database, client: CulqiClient, input: { paymentId: string; now: Date }, orderSteps: PaymentOrderSteps) {
  const row = await paymentWithOrder(db, input.paymentId);
  const reference = row?.payment.providerReference;
  if (!row || !reference?.startsWith("ord_")) return null;
  const culqiOrder = await client.getOrder(reference).catch((error: unknown) => {
    // Only the code's display depends on this read: the payment keeps its ord_ reference, so the
    // order.status.changed webhook still settles it when the customer pays.
    if (error instanceof CulqiUnavailableError) return null;
    throw error;
  });
  if (!culqiOrder?.payment_code) return null;
  const expiresAt = culqiOrder.expiration_date
    ? new Date(culqiOrder.expiration_date * (culqiOrder.expiration_date > 1e12 ? 1 : 1000))
    : new Date(input.now.getTime() + CULQI_CODE_HOURS * 3_600_000);
  return recordPaymentCodeIssued(
    db,
    row.payment.id,
    {
      now: input.now,
      actor: "culqi",
      method: "cash",
      code: culqiOrder.payment_code,
      expiresAt,
      providerReference: reference,
    },
    orderSteps,
  );
}

export type WebhookOutcome = { status: number; applied: boolean };

export type CulqiWebhookInput = { rawBody: string; authorization: string | null; expectedAuthorization: string | null; now: Date; siteUrl: string };

/** What the shop does when Culqi says a payment's code expired; answers whether anything changed. */
export type CulqiCodeExpired = (payment: { id: string; orderId: string }, input: { now: Date }) => Promise<boolean>;

/** payments.md A.9: `data` arrives as a JSON string (sometimes an object); be lenient. */
function parseEvent(rawBody: string): { id: string; type: string; data: Record<string, unknown> } | null {
  try {
    const envelope = JSON.parse(rawBody) as { id?: unknown; type?: unknown; data?: unknown };
    const data = typeof envelope.data === "string" ? JSON.parse(envelope.data) : envelope.data;
    if (typeof envelope.id !== "string" || typeof envelope.type !== "string" || typeof data !== "object" || data === null) return null;
    return { id: envelope.id, type: envelope.type, data: data as Record<string, unknown> };
  } catch {
    // Not Culqi's envelope: answered 400, nothing to retry.
    return null;
  }
}

/**
 * Culqi's webhook. Basic auth is checked; the event is only a hint: the charge or order it names
 * is fetched again from Culqi with the secret key before anything changes. Settling is idempotent
 * and the event id is recorded only once the event was fully handled, so a replayed event changes
 * nothing and a failed one is answered 5xx for Culqi to deliver again (decision
 * 0026-late-payments-and-refunds). Benign cases (unknown charge, a charge that is not ours, a
 * declined charge) are answered 200.
 *
 * What the event does to the shop's order is passed in by the floor above (order-flows, decision
 * 0083): `orderSteps` for money settled or given back, and `onCodeExpired` for a Culqi order whose
 * code expired (or was deleted), which ends the shop's order too. Both run before the event is
 * recorded, as everything else the event does.
 */
export async function handleCulqiWebhookEvent(
  db: Database,
  client: CulqiClient,
  input: CulqiWebhookInput,
  orderSteps: PaymentOrderSteps,
  onCodeExpired: CulqiCodeExpired,
): Promise<WebhookOutcome> {
  if (input.expectedAuthorization && !sameSecret(input.authorization, input.expectedAuthorization)) return { status: 401, applied: false };
  const event = parseEvent(input.rawBody);
  if (!event) return { status: 400, applied: false };
  try {
    const [seen] = await db
      .select()
      .from(processedWebhookEvents)
      .where(and(eq(processedWebhookEvents.provider, "culqi"), eq(processedWebhookEvents.eventId, event.id)));
    if (seen) return { status: 200, applied: false };

    const resourceId = String(event.data.id ?? event.data.chargeId ?? event.data.charge_id ?? "");
    let applied = false;
    if (resourceId.startsWith("chr_")) applied = await applyCharge(db, client, await client.getCharge(resourceId), input, orderSteps);
    else if (resourceId.startsWith("ord_")) applied = await applyOrder(db, client, await client.getOrder(resourceId), input, orderSteps, onCodeExpired);

    await db.insert(processedWebhookEvents).values({ provider: "culqi", eventId: event.id, processedAt: input.now }).onConflictDoNothing();
    return { status: 200, applied };
  } catch (error) {
    // Not marked processed: Culqi delivers the event again and the handler, being idempotent, resumes.
    const status = error instanceof CulqiUnavailableError ? 503 : 500;
    console.error(`[payments] Culqi webhook ${event.id} (${event.type}) not processed, answered ${status}; Culqi will retry`, error);
    return { status, applied: false };
  }
}

function sameSecret(given: string | null, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Settles (or refunds, per the late-settlement rule) a charge Culqi confirmed, then calls Culqi for
 * a refund outside the transaction. A failed refund call is recorded on its row and retried by
 * the jobs, so it does not fail the caller.
 */
async function settleCharge(
  db: Database,
  client: CulqiClient,
  charge: CulqiCharge,
  paymentId: string,
  input: { now: Date; siteUrl: string; actor: string },
  orderSteps: PaymentOrderSteps,
): Promise<ChargeSettlement> {
  const settled = await settleConfirmedCharge(
    db,
    paymentId,
    {
      provider: "culqi",
      reference: charge.id,
      amountCents: charge.amount,
      method: charge.source?.id?.startsWith("ype_") || charge.source?.type === "yape" ? "yape" : "card",
    },
    input,
    orderSteps,
  );
  if (settled.kind === "refund") await processRefund(db, client, settled.refundId, input, orderSteps);
  return settled;
}

async function applyCharge(
  db: Database,
  client: CulqiClient,
  charge: CulqiCharge | null,
  input: { now: Date; siteUrl: string },
  orderSteps: PaymentOrderSteps,
): Promise<boolean> {
  const paymentId = charge?.metadata?.payment_id;
  // Unknown to Culqi, not one of our payment attempts (a subscription's saved-card charge carries
  // only its charge_key), or not a successful sale: nothing to settle.
  if (!charge || !paymentId || charge.outcome?.type !== "venta_exitosa") return false;
  try {
    const settled = await settleCharge(db, client, charge, paymentId, { ...input, actor: "culqi-webhook" }, orderSteps);
    return settled.kind === "refund" ? settled.created : !settled.alreadySettled;
  } catch (error) {
    if (!(error instanceof PaymentNotFoundError)) throw error;
    console.warn(`[payments] Culqi charge ${charge.id} names payment ${paymentId}, which is not a Culqi payment of this shop: ignored`);
    return false;
  }
}

async function applyOrder(
  db: Database,
  client: CulqiClient,
  culqiOrder: CulqiOrder | null,
  input: { now: Date; siteUrl: string },
  orderSteps: PaymentOrderSteps,
  onCodeExpired: CulqiCodeExpired,
): Promise<boolean> {
  if (!culqiOrder) return false;
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, "culqi"), eq(payments.providerReference, culqiOrder.id)));
  if (!payment) return false;
  if (culqiOrder.state === "paid") {
    const settled = await settleConfirmedCharge(
      db,
      payment.id,
      { provider: "culqi", reference: culqiOrder.id, amountCents: culqiOrder.amount, method: "cash" },
      { ...input, actor: "culqi-webhook" },
      orderSteps,
    );
    if (settled.kind === "refund") {
      await processRefund(db, client, settled.refundId, input, orderSteps);
      return settled.created;
    }
    return !settled.alreadySettled;
  }
  if (culqiOrder.state === "expired" || culqiOrder.state === "deleted") return onCodeExpired(payment, input);
  return false;
}
