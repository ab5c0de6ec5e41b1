import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/subscription-detail";
import { cardProviderFor } from "@server/payments/index.server";
import { chargeUnpaidPeriodNow, findSubscriptionForStaff, loadSelfServiceOptions } from "@server/subscriptions/index.server";
import { FormAlert } from "~/components/account/auth-shell";
import { IntentForm, SubscriptionActions, SubscriptionFormBase } from "~/components/account/subscription-actions";
import { SubscriptionHistory, SubscriptionSummary } from "~/components/account/subscription-card";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { staffDate, SubscriptionConsoleNav, SubscriptionStatusBadge } from "~/components/admin/subscription-console";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { siteInfo } from "~/server/site-info.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { STAFF_SUBSCRIPTION_INTENTS, subscriptionAction, SUBSCRIPTION_NOT_FOUND } from "~/server/subscription-self-service.server";
import { deliveryStatusLabel } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { billingMethodLabels, periodStatusLabels } from "@core/staff-subscription-filters";
import type { SelfServiceAction } from "@core/subscription-self-service";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("suscripciones.gestionar")];

const BASE = "/admin/suscripciones";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const now = new Date();
  const detail = await findSubscriptionForStaff(db, params.subscriptionId, now);
  if (!detail) throw data(SUBSCRIPTION_NOT_FOUND, { status: 404 });
  const options = await loadSelfServiceOptions(db, detail.customer.id, params.subscriptionId, now);
  if (!options) throw data(SUBSCRIPTION_NOT_FOUND, { status: 404 });
  const query = new URL(request.url).searchParams;
  const changed = detail.subscription.history.find((event) => String(event.id) === query.get("cambio"));
  const current = detail.periods.find((period) => period.periodNumber === detail.nextPeriodNumber);
  const charge = query.get("cobro");
  return {
    detail,
    options: { ...options, actions: options.actions.filter((action) => STAFF_SUBSCRIPTION_INTENTS.includes(action)) },
    requestKey: crypto.randomUUID(),
    success: changed?.description ?? null,
    chargeNotice:
      charge === "pagado"
        ? "Cobro aprobado: el periodo quedó pagado."
        : charge === "rechazado"
          ? "El banco rechazó el cobro. La suscripción sigue con el pago pendiente."
          : charge === "en-proceso"
            ? "El proveedor no confirmó el cobro todavía: se concilia en la próxima pasada de renovaciones."
            : null,
    // "Cobrar ahora": a card period renewals could not collect (declined, or past due after the last attempt).
    canChargeNow:
      current?.status === "failed" &&
      detail.subscription.billingMethod === "card" &&
      (detail.subscription.status === "active" || detail.subscription.status === "past_due"),
  };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const detail = await findSubscriptionForStaff(db, params.subscriptionId);
  if (!detail) throw data(SUBSCRIPTION_NOT_FOUND, { status: 404 });
  const form = await readFormData(request);
  const actor = staffActor(context, request);
  const siteUrl = (await siteInfo(db)).siteUrl;
  if (form.get("intent") === "charge-now") {
    const result = await chargeUnpaidPeriodNow(db, {
      userId: detail.customer.id,
      subscriptionId: params.subscriptionId,
      requestKey: String(form.get("requestKey") ?? ""),
      now: new Date(),
      siteUrl,
      staff: actor,
      cardsFor: (provider) => cardProviderFor(db, provider),
    });
    if (!result.ok && result.reason === "not_found") throw data(SUBSCRIPTION_NOT_FOUND, { status: 404 });
    if (!result.ok) return data({ intent: "charge-now" as const, error: result.message, field: null }, { status: 400 });
    const outcome = result.alreadyApplied ? null : result.charge === "paid" ? "pagado" : result.charge === "pending" ? "en-proceso" : "rechazado";
    return redirect(`${BASE}/${params.subscriptionId}?cambio=${result.eventId}${outcome ? `&cobro=${outcome}` : ""}`);
  }
  return subscriptionAction(db, request, { userId: detail.customer.id, subscriptionId: params.subscriptionId, siteUrl, staff: actor, basePath: BASE, form });
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `${loaded ? `Suscripción ${loaded.detail.subscription.subscriptionNumber}` : "Suscripción"} · Back office` },
  { name: "robots", content: "noindex,nofollow" },
];

const sectionClass = "rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100";

export default function AdminSubscriptionDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { detail, options, requestKey, success, chargeNotice, canChargeNow } = loaderData;
  const { subscription, customer } = detail;
  const actionError = actionData && actionData.intent !== "charge-now" ? { ...actionData, intent: actionData.intent as SelfServiceAction | null } : null;
  return (
    <SubscriptionFormBase.Provider value={BASE}>
      <AdminPageHeader title={`Suscripción ${subscription.subscriptionNumber}`}>
        <SubscriptionStatusBadge status={subscription.status} />
      </AdminPageHeader>
      <SubscriptionConsoleNav />
      <div className="space-y-6">
        {success && <FormAlert tone="success">{success}</FormAlert>}
        {chargeNotice && <FormAlert tone={subscription.status === "active" ? "info" : "error"}>{chargeNotice}</FormAlert>}
        {actionError?.intent === null && <FormAlert>{actionError.error}</FormAlert>}
        <section className={sectionClass} aria-labelledby="customer">
          <h2 id="customer" className="text-lg font-bold">
            Cliente
          </h2>
          <p className="mt-2 text-slate-900">{customer.name}</p>
          <p className="break-all text-slate-600">{customer.email}</p>
          {customer.phone && <p className="text-slate-600">{customer.phone}</p>}
          <p className="mt-2 text-sm text-slate-600">
            Cobro: {billingMethodLabels[subscription.billingMethod] ?? subscription.billingMethod}
            {subscription.cardLast4 ? ` · ${subscription.cardBrand ?? "Tarjeta"} terminada en ${subscription.cardLast4}` : ""}
          </p>
        </section>
        <SubscriptionSummary subscription={subscription} />
        {canChargeNow && (
          <section className={sectionClass} aria-labelledby="charge-now">
            <h2 id="charge-now" className="text-lg font-bold">
              Cobrar ahora
            </h2>
            <p className="mt-2 text-sm text-slate-600">
              Cobra el periodo pendiente a la tarjeta registrada del cliente, como lo haría la renovación. Un doble clic no cobra dos veces.
            </p>
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="charge-now" />
              <input type="hidden" name="requestKey" value={requestKey} />
              {actionData?.intent === "charge-now" && <FormAlert>{actionData.error}</FormAlert>}
              <button type="submit" className="mt-2 rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800">
                Cobrar ahora
              </button>
            </Form>
          </section>
        )}
        {options.actions.includes("resume") && (
          <section className={sectionClass} aria-labelledby="resume-now">
            <h2 id="resume-now" className="text-lg font-bold">
              Pausada
            </h2>
            <IntentForm
              subscriptionId={subscription.id}
              intent="resume"
              requestKey={requestKey}
              error={actionError?.intent === "resume" ? actionError : null}
              submit="Reanudar ahora"
            />
          </section>
        )}
        <SubscriptionActions subscription={subscription} options={options} requestKey={requestKey} openAction={null} actionError={actionError} />
        <section className={sectionClass} aria-labelledby="ledger">
          <h2 id="ledger" className="text-lg font-bold">
            Periodos y cobros
          </h2>
          {detail.periods.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Solo el pedido inicial; las renovaciones aparecerán aquí.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100 text-sm">
              {detail.periods.map((period) => (
                <li key={period.periodNumber} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
                  <span>
                    Periodo {period.periodNumber} · {staffDate(period.billingDate)} · {formatSoles(period.amountCents)}
                    {period.orderNumber ? ` · pedido ${period.orderNumber}` : ""}
                  </span>
                  <span className="text-slate-700">
                    {periodStatusLabels[period.status] ?? period.status} · {period.attempts} intento{period.attempts === 1 ? "" : "s"}
                    {period.nextAttemptDate ? ` · reintento ${staffDate(period.nextAttemptDate)}` : ""}
                    {period.lastError ? ` · ${period.lastError}` : ""}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <h3 className="mt-4 font-semibold">Pagos</h3>
          {detail.payments.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">Sin pagos registrados.</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100 text-sm">
              {detail.payments.map((payment) => (
                <li key={payment.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
                  <span>
                    {formatLimaInstant(payment.createdAt, { day: "numeric", month: "short", year: "numeric" })} · pedido {payment.orderNumber} ·{" "}
                    {formatSoles(payment.amountCents)}
                  </span>
                  <span className="text-slate-700">
                    {payment.provider}
                    {payment.method ? ` (${payment.method})` : ""} · {payment.status}
                    {payment.failureMessage ? ` · ${payment.failureMessage}` : ""}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className={sectionClass} aria-labelledby="deliveries">
          <h2 id="deliveries" className="text-lg font-bold">
            Entregas
          </h2>
          {detail.deliveries.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Todavía no hay entregas creadas.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100 text-sm">
              {detail.deliveries.map((delivery) => (
                <li key={delivery.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
                  <span>
                    {delivery.deliveryNumber} · {staffDate(delivery.deliveryDate)} · {deliveryWindowLabel(delivery.deliveryWindow)}
                  </span>
                  <span className="text-slate-700">{deliveryStatusLabel(delivery.status)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <SubscriptionHistory history={subscription.history} />
        <Link to={BASE} className="inline-block text-sm font-semibold text-brand-800 underline">
          ← Volver a suscripciones
        </Link>
      </div>
    </SubscriptionFormBase.Provider>
  );
}
