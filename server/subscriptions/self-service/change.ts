import { and, desc, eq, sql } from "drizzle-orm";
import { formatLimaDate } from "@core/lima-dates";
import { canDo, type SelfServiceAction } from "@core/subscription-self-service";
import type { Database } from "../../db/client";
import { subscriptionEvents, subscriptions } from "../../db/schema";
import type { DatabaseOrTransaction } from "../../db/transaction";
import { isSubscriptionId } from "../customer-subscriptions";
import { notifySubscriber } from "../notify";
import { inRefusableTransaction } from "../../db/transaction";
import { recordStaffAction, type StaffActor } from "../../audit/index.server";

export type Subscription = typeof subscriptions.$inferSelect;
type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** What every self-service action receives besides its own input. */
export interface SelfServiceContext {
  userId: string;
  subscriptionId: string;
  /**
   * Names one submit of one form (the page hands out a fresh key on every load): the same key
   * twice (a double click, a resent form) applies the change and sends its email once.
   */
  requestKey: string;
  now: Date;
  siteUrl: string;
  /**
   * A staff member acting on the customer's behalf (issue 11, /admin/suscripciones): the same
   * change, recorded in the audit log inside its transaction, and the customer's history and
   * e-mail say our team made it. `userId` is still the subscription's owner.
   */
  staff?: StaffActor;
}

/** Intents the frame knows: the customer's own, and the staff-only "charge now" of a past-due period. */
export type ChangeIntent = SelfServiceAction | "charge-now";

/** Who a history entry names: the customer, or our team on their behalf. */
export const eventActor = (context: Pick<SelfServiceContext, "staff">) => (context.staff ? "staff" : "customer");

/** The customer reads in their history and e-mail that our team made the change for them. */
export const describedFor = (context: Pick<SelfServiceContext, "staff">, description: string) =>
  context.staff ? `${description} (Cambio hecho por nuestro equipo de atención.)` : description;

export type SelfServiceResult =
  | { ok: true; eventId: number; message: string; alreadyApplied: boolean }
  /** Unknown, malformed or another customer's subscription: nothing is read or changed. */
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "refused"; message: string; field?: string };

/** A change made, described for the history and the confirmation email. */
export interface Change {
  kind: string;
  description: string;
  details?: Record<string, unknown>;
  /** The change recorded its own event (with this request's key in its details). */
  eventRecorded?: boolean;
}

export interface Refusal {
  refused: string;
  field?: string;
}

export const refuse = (message: string, field?: string): Refusal => ({ refused: message, field });

/**
 * The frame of every self-service action (issue 5): in one transaction, the customer's own
 * subscription row locked (another customer's id is not found and never touched), a refusal of
 * `apply` thrown so that nothing it wrote before refusing commits (decision 0071), a repeated
 * request answered with what the first one did, the change applied, a `subscription_events` row
 * by the customer, and the confirmation email queued with a key that makes it one email.
 */
export async function changeOwnedSubscription(
  db: Database,
  context: SelfServiceContext,
  intent: ChangeIntent,
  apply: (tx: Transaction, subscription: Subscription) => Promise<Change | Refusal>,
): Promise<SelfServiceResult> {
  if (!isSubscriptionId(context.subscriptionId)) return { ok: false, reason: "not_found" };
  if (!context.requestKey || context.requestKey.length > 100) return { ok: false, reason: "refused", message: "Recarga la página e intenta nuevamente." };
  return inRefusableTransaction<SelfServiceResult>(db, async (tx, refuseChange) => {
    const [subscription] = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.id, context.subscriptionId), eq(subscriptions.userId, context.userId)))
      .for("update");
    if (!subscription) return refuseChange({ ok: false, reason: "not_found" });
    const earlier = await eventOfRequest(tx, subscription.id, intent, context.requestKey);
    if (earlier) return { ok: true as const, eventId: earlier.id, message: earlier.description, alreadyApplied: true };

    const outcome = await apply(tx, subscription);
    // Decision 0071: a refusal rolls back whatever the action wrote before it decided to refuse.
    if ("refused" in outcome) return refuseChange({ ok: false, reason: "refused", message: outcome.refused, field: outcome.field });

    const description = outcome.eventRecorded ? outcome.description : describedFor(context, outcome.description);
    const requestDetails = { ...outcome.details, intent, requestKey: context.requestKey, ...(context.staff ? { staffEmail: context.staff.email } : {}) };
    const eventId = outcome.eventRecorded
      ? (await eventOfRequest(tx, subscription.id, intent, context.requestKey))!.id
      : (
          await tx
            .insert(subscriptionEvents)
            .values({
              subscriptionId: subscription.id,
              kind: outcome.kind,
              description,
              actor: eventActor(context),
              details: requestDetails,
              createdAt: context.now,
            })
            .returning({ id: subscriptionEvents.id })
        )[0]!.id;
    await notifySubscriber(tx, subscription, {
      dedupeKey: `subscription-change:${subscription.id}:${intent}:${context.requestKey}`,
      kind: "subscription_changed",
      email: { type: "changed", change: description },
      now: context.now,
      siteUrl: context.siteUrl,
    });
    if (context.staff) {
      const [after] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
      await recordStaffAction(tx, context.staff, {
        action: `subscription.${intent}`,
        entityType: "subscription",
        entityId: subscription.id,
        before: auditedState(subscription),
        after: { ...auditedState(after!), change: outcome.details ?? null },
      });
    }
    return { ok: true as const, eventId, message: description, alreadyApplied: false };
  });
}

/** The columns a staff change can touch, for the audit row's before and after. */
function auditedState(subscription: Subscription) {
  return {
    status: subscription.status,
    frequency: subscription.frequency,
    pendingFrequency: subscription.pendingFrequency,
    baseAmountCents: subscription.baseAmountCents,
    nextBillingDate: subscription.nextBillingDate,
    nextDeliveryDate: subscription.nextDeliveryDate,
    nextPeriodNumber: subscription.nextPeriodNumber,
    pausedUntil: subscription.pausedUntil,
    endsOn: subscription.endsOn,
    cancelReason: subscription.cancelReason,
  };
}

async function eventOfRequest(tx: DatabaseOrTransaction, subscriptionId: string, intent: string, requestKey: string) {
  const [event] = await tx
    .select({ id: subscriptionEvents.id, description: subscriptionEvents.description })
    .from(subscriptionEvents)
    .where(
      and(
        eq(subscriptionEvents.subscriptionId, subscriptionId),
        sql`${subscriptionEvents.details}->>'requestKey' = ${requestKey}`,
        sql`${subscriptionEvents.details}->>'intent' = ${intent}`,
      ),
    )
    .orderBy(desc(subscriptionEvents.id))
    .limit(1);
  return event ?? null;
}

const longDate = (date: string) => formatLimaDate(date, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
export const shortDate = (date: string) => formatLimaDate(date, { day: "numeric", month: "long", year: "numeric" });

/** Why the subscription's state does not allow `action` now, in the customer's words; null when it does. */
export function stateRefusal(subscription: Subscription, action: SelfServiceAction): Refusal | null {
  if (canDo(subscription, action)) return null;
  if (subscription.status === "cancelled") return refuse("Tu suscripción está cancelada.");
  if (subscription.status === "pending_payment") return refuse("Tu suscripción aún no está activa: registra tu tarjeta para empezar.");
  if (action === "undo-cancel") return refuse("Tu suscripción no tiene una cancelación pendiente.");
  if (subscription.endsOn) return refuse(`Tu suscripción termina el ${longDate(subscription.endsOn)}. Deshaz la cancelación para hacer este cambio.`);
  if (subscription.status === "past_due") return refuse("Tu suscripción tiene un pago pendiente. Actualiza tu tarjeta para reactivarla.");
  if (subscription.status === "paused") {
    return refuse(
      `Tu suscripción está pausada${subscription.pausedUntil ? ` hasta el ${longDate(subscription.pausedUntil)}` : ""}. Reanúdala para hacer este cambio.`,
    );
  }
  if (action === "resume") return refuse("Tu suscripción no está pausada.");
  return refuse("Este cambio no está disponible para tu suscripción.");
}
