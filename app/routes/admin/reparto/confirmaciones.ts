import { data } from "react-router";
import type { Route } from "./+types/confirmaciones";
import { DELIVERY_PHOTO_REQUIRED, deliveryPhotoMissing, type QueuedDriverConfirmation } from "@server/deliveries/index.server";
import { applyQueuedDriverConfirmations } from "@server/order-flows/index.server";
import { fieldErrors } from "@core/checkout-schema";
import { phoneTime } from "@core/driver-clock";
import { isUuid } from "@core/input-schemas";
import { z } from "@core/zod";
import { dbContext } from "~/server/db-context.server";
import { confirmationFromForm, driverRefusalMessage } from "~/routes/admin/reparto/driver-stop-answers.server";
import { driverStopSchema } from "~/lib/driver-stop-schema";
import { METHOD_NOT_ALLOWED, readJson, UNREADABLE_JSON } from "~/server/request-body.server";
import { siteInfo } from "~/server/site-info.server";
import { allowStaff, staffActor, staffContext } from "~/server/staff.server";

/**
 * Issue 26, decision 0079: the driver app's queue of taps, sent by the phone when it has signal.
 * Each item is the stop form's fields with the key the phone gave the tap and when it happened;
 * the answer says, per key, whether it was applied (now or before) or refused, and why in Spanish.
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("reparto.usar")];

/** A day's route is a few dozen stops with three taps each; a batch past this is not a phone's. */
export const MAX_QUEUED_ITEMS = 100;

const batchSchema = z.object({
  /** The phone's clock as it sent the batch: its offset from ours corrects the taps' times (ignored when it is no time). */
  sentAt: z.unknown(),
  items: z
    .array(
      z.object({
        key: z.string().max(100),
        // Checked per item (issue 39): one broken time is refused on its own, never the whole batch,
        // which the phone would send again for ever.
        occurredAt: z.unknown(),
        fields: z.record(z.string(), z.string().max(2000)),
      }),
    )
    .min(1)
    .max(MAX_QUEUED_ITEMS),
});

/**
 * Why a tap was refused, for the phone: every refusal leaves the queue (the phone keeps it on the
 * stop, in red, until the driver presses «Entendido») and the next tap is sent.
 */
export type RefusalReason =
  "photo_required" | "invalid" | "fields" | "key_reused" | "not_found" | "not_allowed" | "collection_required" | "already_paid" | "too_old";

export type QueuedItemAnswer =
  | { key: string; status: "applied"; recordedAt: string }
  | { key: string; status: "refused"; reason: RefusalReason; deliveryId: string; message: string; fieldErrors?: Record<string, string> }
  | { key: string; status: "not_processed" };

/** A tap whose key or time cannot be one (a broken phone store): refused, never retried. */
export const INVALID_TAP_MESSAGE = "Esta confirmación llegó con una hora o una clave no válida y no se registró. Vuelve a marcar la parada si hace falta.";

export function loader() {
  throw data(METHOD_NOT_ALLOWED, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const receivedAt = new Date();
  const body = await readJson(request, "driverQueue");
  const parsed = batchSchema.safeParse(body);
  if (!parsed.success) return Response.json({ error: UNREADABLE_JSON }, { status: 400, headers: { "Cache-Control": "no-store" } });
  const db = context.get(dbContext);
  const driverId = context.get(staffContext).id;
  const answers: QueuedItemAnswer[] = [];
  const valid: QueuedDriverConfirmation[] = [];
  const order: (QueuedDriverConfirmation | QueuedItemAnswer)[] = [];
  for (const item of parsed.data.items) {
    const occurredAt = phoneTime(item.occurredAt);
    if (!occurredAt || !isUuid(item.key)) {
      order.push({ key: item.key, status: "refused", reason: "invalid", deliveryId: item.fields.deliveryId ?? "", message: INVALID_TAP_MESSAGE });
      continue;
    }
    const form = driverStopSchema.safeParse(item.fields);
    if (!form.success) {
      // A tap the form would have refused: said on its stop, with each field's message.
      const errors = fieldErrors(form.error);
      const deliveryId = item.fields.deliveryId ?? "";
      const message = Object.values(errors)[0] ?? "Revisa los datos de esta parada.";
      order.push({ key: item.key, status: "refused", reason: "fields", deliveryId, message, fieldErrors: errors });
      continue;
    }
    // Issue 40: the photo the setting asks for, which the phone uploads before this tap.
    if (form.data.intent === "entregado" && (await deliveryPhotoMissing(db, driverId, form.data.deliveryId))) {
      order.push({ key: item.key, status: "refused", reason: "photo_required", deliveryId: form.data.deliveryId, message: DELIVERY_PHOTO_REQUIRED });
      continue;
    }
    const queued = {
      key: item.key,
      deliveryId: form.data.deliveryId,
      intent: form.data.intent,
      confirmation: confirmationFromForm(form.data),
      occurredAt,
    };
    valid.push(queued);
    order.push(queued);
  }
  const site = await siteInfo(db, request);
  const applied = await applyQueuedDriverConfirmations(db, {
    driver: staffActor(context, request),
    items: valid,
    sentAt: phoneTime(parsed.data.sentAt) ?? receivedAt,
    now: receivedAt,
    siteUrl: site.siteUrl,
  });
  // By position, not by key: a batch may carry a key twice (a reused key is refused on its own, issue 39).
  let next = 0;
  for (const entry of order) {
    if ("status" in entry) {
      answers.push(entry);
      continue;
    }
    const answer = applied[next++];
    if (!answer || answer.status === "not_processed") answers.push({ key: entry.key, status: "not_processed" });
    else if (answer.status === "applied") answers.push({ key: entry.key, status: "applied", recordedAt: answer.recordedAt.toISOString() });
    else
      answers.push({
        key: entry.key,
        status: "refused",
        reason: answer.refusal.reason,
        deliveryId: entry.deliveryId,
        message: driverRefusalMessage(answer.refusal),
      });
  }
  return Response.json({ answers }, { headers: { "Cache-Control": "no-store" } });
}
