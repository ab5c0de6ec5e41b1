/**
 * The subscription page's form actions (issue 5): one form per action, told apart by `intent`,
 * handed to the subscriptions domain. A change redirects back with `?cambio=<event id>` (the page
 * shows that event as its success message, and a reload does not post again); a refusal answers
 * 400 with the domain's Spanish message; another customer's subscription is a 404.
 */
import { data, redirect } from "react-router";
import {
  cancelSubscription,
  changeBillingMethod,
  changeNextDeliveryDate,
  changeSubscriptionCadence,
  changeSubscriptionFrequency,
  changeSubscriptionOrganization,
  changeSubscriptionProducts,
  pauseSubscription,
  resumeSubscriptionNow,
  skipNextDelivery,
  undoCancellation,
  type SelfServiceContext,
  type SelfServiceResult,
} from "@server/subscriptions/index.server";
import type { Database } from "@server/db/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { readFormData } from "~/server/request-body.server";
import { INT32_MAX, isPlainText } from "@core/input-schemas";
import { linesFromQuantityFields, type SelfServiceAction } from "@core/subscription-self-service";

export const SUBSCRIPTION_NOT_FOUND = "Suscripción no encontrada";

export interface SelfServiceActionData {
  intent: SelfServiceAction | null;
  error: string;
  field: string | null;
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** What staff may do on a customer's behalf (issue 11): the card needs the customer's own card details. */
export const STAFF_SUBSCRIPTION_INTENTS: readonly string[] = ["skip", "date", "pause", "resume", "products", "frequency", "cadence", "cancel", "undo-cancel"];

export async function subscriptionAction(
  db: Database,
  request: Request,
  input: { userId: string; subscriptionId: string; siteUrl: string; staff?: StaffActor; basePath?: string; form?: FormData },
) {
  const form = input.form ?? (await readFormData(request));
  // Issue 9: a NUL byte or other control character never reaches the database (PostgreSQL
  // refuses it with an error); the customer's free text may still hold line breaks.
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string" || !isPlainText(value) || value.length > 2000) {
      return data<SelfServiceActionData>(
        { intent: null, error: "El formulario contiene caracteres no permitidos. Revisa lo que escribiste e intenta nuevamente.", field: name },
        { status: 400 },
      );
    }
  }
  const intent = text(form, "intent");
  const context: SelfServiceContext = {
    userId: input.userId,
    subscriptionId: input.subscriptionId,
    requestKey: text(form, "requestKey"),
    now: new Date(),
    siteUrl: input.siteUrl,
    ...(input.staff ? { staff: input.staff } : {}),
  };
  if (input.staff && !STAFF_SUBSCRIPTION_INTENTS.includes(intent)) {
    return data<SelfServiceActionData>({ intent: null, error: "Acción desconocida. Recarga la página e intenta nuevamente.", field: null }, { status: 400 });
  }
  let result: SelfServiceResult;
  switch (intent) {
    case "pause":
      result = await pauseSubscription(db, { ...context, until: text(form, "until") });
      break;
    case "resume":
      result = await resumeSubscriptionNow(db, context);
      break;
    case "skip":
      result = await skipNextDelivery(db, context);
      break;
    case "date":
      result = await changeNextDeliveryDate(db, { ...context, date: text(form, "date") });
      break;
    case "products": {
      const { lines, invalid } = linesFromQuantityFields(form.entries());
      result = await changeSubscriptionProducts(db, { ...context, lines, invalidQuantities: invalid });
      break;
    }
    case "frequency":
      result = await changeSubscriptionFrequency(db, { ...context, frequency: text(form, "frequency") });
      break;
    case "cadence":
      result = await changeSubscriptionCadence(db, { ...context, cadence: text(form, "cadence") });
      break;
    case "organization": {
      const value = text(form, "organizationId");
      const organizationId = value === "" ? null : Number(value);
      if (organizationId !== null && !(Number.isInteger(organizationId) && organizationId > 0 && organizationId <= INT32_MAX)) {
        return data<SelfServiceActionData>({ intent: "organization", error: "Elige una organización de la lista", field: "organizationId" }, { status: 400 });
      }
      result = await changeSubscriptionOrganization(db, { ...context, organizationId });
      break;
    }
    case "billing":
      result = await changeBillingMethod(db, { ...context, method: text(form, "method") });
      break;
    case "cancel":
      result = await cancelSubscription(db, { ...context, reason: text(form, "reason"), detail: text(form, "detail") });
      break;
    case "undo-cancel":
      result = await undoCancellation(db, context);
      break;
    default:
      return data<SelfServiceActionData>({ intent: null, error: "Acción desconocida. Recarga la página e intenta nuevamente.", field: null }, { status: 400 });
  }
  if (!result.ok && result.reason === "not_found") throw data(SUBSCRIPTION_NOT_FOUND, { status: 404 });
  if (!result.ok)
    return data<SelfServiceActionData>({ intent: intent as SelfServiceAction, error: result.message, field: result.field ?? null }, { status: 400 });
  return redirect(`${input.basePath ?? "/dashboard/suscripciones"}/${input.subscriptionId}?cambio=${result.eventId}`);
}
