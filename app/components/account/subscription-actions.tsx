import { createContext, useContext, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { SelfServiceOptions, SubscriptionView } from "@server/subscriptions/index.server";
import { FormAlert } from "~/components/account/auth-shell";
import { inputClass } from "~/components/ui/form-field";
import { formatLimaDate, weekdayNames } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { MINIMUM_ORDER_CENTS, minimumOrderShortfall, orderSummary } from "@core/pricing";
import { cadenceOf, cadenceTerms, deliveriesPerMonth, deliveryCadenceLabels, deliveryCadences, monthlySubtotalCents } from "@core/delivery-cadence";
import { deliveriesPerPeriod } from "@core/subscription-dates";
import { CANCEL_REASONS, quantityFieldName, type SelfServiceAction } from "@core/subscription-self-service";

/** The panel of each action, as named in links (`?accion=`), and the order they are shown in. */
export const actionPanels: { action: SelfServiceAction; slug: string; title: string }[] = [
  { action: "resume", slug: "reanudar", title: "Reanudar" },
  { action: "undo-cancel", slug: "deshacer-cancelacion", title: "Deshacer la cancelación" },
  { action: "card", slug: "tarjeta", title: "Actualizar tarjeta" },
  { action: "skip", slug: "saltar", title: "Saltar la próxima entrega" },
  { action: "date", slug: "fecha", title: "Cambiar la fecha de la próxima entrega" },
  { action: "pause", slug: "pausar", title: "Pausar" },
  { action: "products", slug: "productos", title: "Cambiar productos y cantidades" },
  { action: "frequency", slug: "plan", title: "Cambiar de plan (mensual o anual)" },
  { action: "cadence", slug: "entregas", title: "Cambiar cada cuánto recibes tus entregas" },
  { action: "organization", slug: "organizacion", title: "Cambiar la organización que apoyas" },
  { action: "billing", slug: "forma-de-pago", title: "Forma de pago de cada periodo" },
  { action: "cancel", slug: "cancelar", title: "Cancelar la suscripción" },
];

/**
 * Where the subscription's forms post: the customer's page, or (issue 11) the staff console's
 * detail page, which runs the same domain actions on the customer's behalf.
 */
export const SubscriptionFormBase = createContext("/dashboard/suscripciones");

export const panelLink = (subscriptionId: string, action: SelfServiceAction) =>
  `/dashboard/suscripciones/${subscriptionId}?accion=${actionPanels.find((panel) => panel.action === action)!.slug}#${action}`;

const longDate = (date: string) => formatLimaDate(date, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
const dayMonth = (date: string) => formatLimaDate(date, { weekday: "long", day: "numeric", month: "long" });
const perPeriod = (cents: number, frequency: string) => `${formatSoles(cents)} ${frequency === "anual" ? "al año" : "al mes"}`;

export interface ActionError {
  intent: SelfServiceAction | null;
  error: string;
  field: string | null;
}

interface Props {
  subscription: SubscriptionView;
  options: SelfServiceOptions;
  requestKey: string;
  openAction: SelfServiceAction | null;
  actionError: ActionError | null;
}

/** Every self-service action of one subscription (issue 5), each a form posting its `intent`; they work without JavaScript. */
export function SubscriptionActions({ subscription, options, requestKey, openAction, actionError }: Props) {
  // Resuming is one click, offered in the pause notice at the top of the page (not a folded panel).
  const panels = actionPanels.filter((panel) => options.actions.includes(panel.action) && panel.action !== "resume");
  if (panels.length === 0) return null;
  const errorFor = (action: SelfServiceAction) => (actionError?.intent === action ? actionError : null);
  return (
    <section aria-labelledby="manage-subscription" className="space-y-3">
      <h2 id="manage-subscription" className="text-lg font-bold">
        Gestionar suscripción
      </h2>
      {/* A fresh key after every change closes the panels; a refused form stays open with its message. */}
      <div key={requestKey} className="space-y-3">
        {panels.map((panel) => (
          <details
            key={panel.action}
            id={panel.action}
            open={openAction === panel.action || errorFor(panel.action) !== null || undefined}
            className="group rounded-2xl bg-white shadow-sm ring-1 ring-slate-100"
          >
            <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-2xl px-5 py-4 font-semibold text-brand-900 hover:bg-brand-50">
              {panel.title}
              <span aria-hidden="true" className="text-slate-500 transition group-open:rotate-180">
                ▾
              </span>
            </summary>
            <div className="px-5 pb-5">
              <ActionForm action={panel.action} subscription={subscription} options={options} requestKey={requestKey} error={errorFor(panel.action)} />
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}

function ActionForm({
  action,
  subscription,
  options,
  requestKey,
  error,
}: {
  action: SelfServiceAction;
  subscription: SubscriptionView;
  options: SelfServiceOptions;
  requestKey: string;
  error: ActionError | null;
}) {
  const nextBilling = subscription.nextBillingDate ? longDate(subscription.nextBillingDate) : "tu próximo cobro";
  switch (action) {
    case "resume":
      return (
        <IntentForm subscriptionId={subscription.id} intent="resume" requestKey={requestKey} error={error} submit="Reanudar ahora">
          <p className="text-sm text-slate-700">
            Volvemos a programar tus entregas desde mañana. Si la fecha de tu cobro pasó durante la pausa, lo haremos hoy.
          </p>
        </IntentForm>
      );
    case "billing":
      return (
        <IntentForm subscriptionId={subscription.id} intent="billing" requestKey={requestKey} error={error} submit="Guardar forma de pago">
          <fieldset className="space-y-2 text-sm text-slate-700">
            <legend className="sr-only">Forma de pago</legend>
            <label className="flex items-start gap-2">
              <input type="radio" name="method" value="card" defaultChecked={subscription.billingMethod === "card"} className="mt-1 accent-brand-700" />
              <span>
                Cobro automático a mi tarjeta{subscription.cardLast4 ? ` (${subscription.cardBrand ?? "Tarjeta"} terminada en ${subscription.cardLast4})` : ""}
              </span>
            </label>
            <label className="flex items-start gap-2">
              <input
                type="radio"
                name="method"
                value="payment_link"
                defaultChecked={subscription.billingMethod === "payment_link"}
                className="mt-1 accent-brand-700"
              />
              <span>Enlace de pago por correo cada periodo (Yape, tarjeta o efectivo)</span>
            </label>
          </fieldset>
        </IntentForm>
      );
    case "undo-cancel":
      return (
        <IntentForm subscriptionId={subscription.id} intent="undo-cancel" requestKey={requestKey} error={error} submit="Deshacer la cancelación">
          <p className="text-sm text-slate-700">Tu suscripción seguirá como antes y el próximo cobro será el {nextBilling}.</p>
        </IntentForm>
      );
    case "card":
      return (
        <div className="space-y-3 text-sm text-slate-700">
          <p>
            {subscription.status === "past_due"
              ? "Registra una tarjeta nueva: cobraremos en ese momento el periodo pendiente y tu suscripción se reactivará."
              : "Registra una tarjeta nueva para tus próximos cobros. No haremos ningún cobro ahora."}
          </p>
          <Link
            to={`/suscripcion/tarjeta/${subscription.id}?modo=actualizar`}
            className="inline-flex rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            Actualizar tarjeta
          </Link>
        </div>
      );
    case "skip":
      return options.skip ? (
        <IntentForm subscriptionId={subscription.id} intent="skip" requestKey={requestKey} error={error} submit="Saltar esta entrega">
          {/* Issue 41: the page says exactly which delivery the button skips (skip-plan.ts, the action's own rule). */}
          {options.skip.kept.map((kept) => (
            <p key={kept.date} className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900" data-testid="skip-kept">
              Tu entrega del {longDate(kept.date)} ya no se puede saltar: {kept.reason}. Llegará como estaba previsto; este botón salta la siguiente, la del{" "}
              {longDate(options.skip!.delivery)}.
            </p>
          ))}
          <p className="text-sm text-slate-700" data-testid="skip-target">
            No entregaremos el <strong>{longDate(options.skip.delivery)}</strong>; la siguiente entrega será el {longDate(options.skip.movedTo)}.{" "}
            {options.skip.skipsBillingDate
              ? `Tampoco cobraremos el periodo del ${longDate(options.skip.skipsBillingDate)}: todo se corre un mes.`
              : cadenceOf(subscription.deliveryCadence) !== "monthly"
                ? "El cobro no cambia: esa entrega pagada llega en la fecha siguiente y recibes todas las que pagaste."
                : "Tu plan anual conserva esa entrega para más adelante; el cobro anual no cambia."}
          </p>
        </IntentForm>
      ) : null;
    case "date":
      return <DateForm subscription={subscription} options={options} requestKey={requestKey} error={error} />;
    case "pause":
      return (
        <IntentForm
          subscriptionId={subscription.id}
          intent="pause"
          requestKey={requestKey}
          error={error}
          submit={subscription.status === "paused" ? "Cambiar la fecha de reanudación" : "Pausar suscripción"}
        >
          <p className="text-sm text-slate-700">
            Mientras esté pausada no haremos cobros ni entregas. Se reanudará sola en la fecha que elijas (hasta 6 meses).
          </p>
          <div>
            <label htmlFor="pause-until" className="mb-1 block text-sm font-semibold">
              Reanudar el
            </label>
            <input
              id="pause-until"
              type="date"
              name="until"
              required
              min={options.pause.min}
              max={options.pause.max}
              defaultValue={subscription.pausedUntil ?? ""}
              aria-invalid={error?.field === "until"}
              className={`${inputClass} sm:max-w-xs`}
            />
          </div>
        </IntentForm>
      );
    case "products":
      return <ProductsForm subscription={subscription} options={options} requestKey={requestKey} error={error} />;
    case "frequency":
      return <FrequencyForm subscription={subscription} options={options} requestKey={requestKey} error={error} />;
    case "cadence":
      return <CadenceForm subscription={subscription} options={options} requestKey={requestKey} error={error} />;
    case "organization":
      return (
        <IntentForm subscriptionId={subscription.id} intent="organization" requestKey={requestKey} error={error} submit="Guardar organización">
          <div>
            <label htmlFor="organization-choice" className="mb-1 block text-sm font-semibold">
              Organización
            </label>
            <select id="organization-choice" name="organizationId" defaultValue={subscription.organization?.id ?? ""} className={`${inputClass} sm:max-w-md`}>
              <option value="">Ninguna</option>
              {options.organizations.map((organization) => (
                <option key={organization.id} value={organization.id}>
                  {organization.title}
                </option>
              ))}
            </select>
          </div>
        </IntentForm>
      );
    case "cancel":
      return <CancelForm subscription={subscription} requestKey={requestKey} error={error} />;
  }
}

function SubmitButton({ children, tone = "primary" }: { children: React.ReactNode; tone?: "primary" | "danger" }) {
  const busy = useNavigation().state === "submitting";
  const colours = tone === "danger" ? "bg-red-700 hover:bg-red-800" : "bg-brand-700 hover:bg-brand-800";
  return (
    <button type="submit" disabled={busy} className={`rounded-full px-5 py-2.5 font-semibold text-white disabled:opacity-60 ${colours}`}>
      {children}
    </button>
  );
}

/** A form posting one intent to the subscription's page, with the page's request key (a repeated submit is applied once). */
export function IntentForm({
  subscriptionId,
  intent,
  requestKey,
  error,
  submit,
  tone,
  children,
}: {
  subscriptionId: string;
  intent: SelfServiceAction;
  requestKey: string;
  error: ActionError | null;
  submit: string;
  tone?: "primary" | "danger";
  children?: React.ReactNode;
}) {
  const base = useContext(SubscriptionFormBase);
  return (
    <Form method="post" action={`${base}/${subscriptionId}`} className="space-y-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="requestKey" value={requestKey} />
      {children}
      {error && <FormAlert>{error.error}</FormAlert>}
      <SubmitButton tone={tone}>{submit}</SubmitButton>
    </Form>
  );
}

function DateForm({
  subscription,
  options,
  requestKey,
  error,
}: {
  subscription: SubscriptionView;
  options: SelfServiceOptions;
  requestKey: string;
  error: ActionError | null;
}) {
  const days = options.deliveryWeekdays.map((day) => weekdayNames[day]!.toLowerCase()).join(", ");
  return (
    <IntentForm subscriptionId={subscription.id} intent="date" requestKey={requestKey} error={error} submit="Cambiar fecha">
      <p className="text-sm text-slate-700">
        {subscription.nextDeliveryDate ? `Tu próxima entrega por programar es el ${longDate(subscription.nextDeliveryDate)}. ` : ""}
        En {subscription.districtName} repartimos los días {days}.{" "}
        {cadenceOf(subscription.deliveryCadence) === "monthly"
          ? "Las entregas siguientes serán el mismo día de la semana, un mes después."
          : "Las entregas siguientes serán el mismo día de la semana, según tu frecuencia de entrega."}
      </p>
      {options.deliveryDates.length === 0 ? (
        <p className="text-sm text-slate-700">Por ahora no hay otras fechas disponibles.</p>
      ) : (
        <div>
          <label htmlFor="delivery-date" className="mb-1 block text-sm font-semibold">
            Nueva fecha
          </label>
          <select id="delivery-date" name="date" required defaultValue="" aria-invalid={error?.field === "date"} className={`${inputClass} sm:max-w-xs`}>
            <option value="" disabled>
              Elige una fecha
            </option>
            {options.deliveryDates.map((date) => (
              <option key={date} value={date}>
                {dayMonth(date)}
              </option>
            ))}
          </select>
        </div>
      )}
    </IntentForm>
  );
}

function ProductsForm({
  subscription,
  options,
  requestKey,
  error,
}: {
  subscription: SubscriptionView;
  options: SelfServiceOptions;
  requestKey: string;
  error: ActionError | null;
}) {
  const [quantities, setQuantities] = useState<Record<string, number>>(() => {
    const initial = Object.fromEntries(options.catalogue.map((line) => [quantityFieldName(line.productId, line.variantId), 0]));
    for (const item of subscription.items) initial[quantityFieldName(item.productId, item.variantId)] = item.quantity;
    return initial;
  });
  const subtotal = options.catalogue.reduce((sum, line) => sum + line.unitPriceCents * (quantities[quantityFieldName(line.productId, line.variantId)] ?? 0), 0);
  const frequency = options.pendingFrequency ?? subscription.frequency;
  const shortfall = minimumOrderShortfall(subtotal);
  // Decision 0097: the quantities are one delivery's; the plan charges the month's deliveries.
  const perMonth = deliveriesPerMonth(cadenceOf(subscription.deliveryCadence));
  return (
    <IntentForm subscriptionId={subscription.id} intent="products" requestKey={requestKey} error={error} submit="Guardar productos">
      <p className="text-sm text-slate-700">
        Los precios son los de la tienda hoy. El cambio se aplica desde tu próximo cobro, el{" "}
        {subscription.nextBillingDate ? longDate(subscription.nextBillingDate) : "próximo periodo"}; lo ya pagado no cambia.
      </p>
      <ul className="divide-y divide-slate-100">
        {options.catalogue.map((line) => {
          const name = quantityFieldName(line.productId, line.variantId);
          const id = `quantity-${line.productId}-${line.variantId ?? 0}`;
          return (
            <li key={name} className="flex items-center justify-between gap-3 py-2">
              <label htmlFor={id} className="text-sm">
                <span className="font-medium">{line.title}</span>
                {line.variantTitle ? ` — ${line.variantTitle}` : ""}{" "}
                <span className="whitespace-nowrap text-slate-600">({formatSoles(line.unitPriceCents)})</span>
              </label>
              <input
                id={id}
                name={name}
                type="number"
                inputMode="numeric"
                min={0}
                max={99}
                value={quantities[name] ?? 0}
                onChange={(event) => setQuantities((previous) => ({ ...previous, [name]: Math.max(0, Math.floor(Number(event.target.value) || 0)) }))}
                className="w-20 shrink-0 rounded-xl border border-slate-300 px-3 py-2 text-right"
              />
            </li>
          );
        })}
      </ul>
      <dl className="space-y-1 rounded-xl bg-brand-50 p-4 text-sm" aria-live="polite">
        <div className="flex justify-between gap-3">
          <dt>{perMonth === 1 ? "Subtotal mensual" : `Subtotal mensual (${perMonth} entregas)`}</dt>
          <dd className="font-semibold">{formatSoles(subtotal * perMonth)}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt>Nuevo cobro</dt>
          <dd className="font-semibold">
            {perPeriod(orderSummary(subtotal * perMonth, "subscription", frequency === "anual" ? "anual" : "mensual").totalCents, frequency)}
          </dd>
        </div>
        {shortfall > 0 && (
          <div className="text-amber-900">
            Pedido Mínimo Requerido: el mínimo de suscripción es {formatSoles(MINIMUM_ORDER_CENTS)} por entrega. Te faltan: {formatSoles(shortfall)}
          </div>
        )}
      </dl>
    </IntentForm>
  );
}

function FrequencyForm({
  subscription,
  options,
  requestKey,
  error,
}: {
  subscription: SubscriptionView;
  options: SelfServiceOptions;
  requestKey: string;
  error: ActionError | null;
}) {
  const planned = options.pendingFrequency ?? subscription.frequency;
  const cadence = cadenceOf(subscription.deliveryCadence);
  // Decision 0097: the year's deliveries by the cadence (12 monthly, 24 every two weeks, 48 weekly).
  const yearDeliveries = cadence === "monthly" ? "12 entregas mensuales" : `${deliveriesPerPeriod("anual", cadence)} entregas en el año`;
  const plans = [
    { value: "mensual", label: "Mensual", detail: `${perPeriod(options.planAmounts.mensual, "mensual")}, 5% de descuento` },
    { value: "anual", label: "Anual", detail: `${perPeriod(options.planAmounts.anual, "anual")}, 15% de descuento, ${yearDeliveries}` },
  ];
  return (
    <IntentForm subscriptionId={subscription.id} intent="frequency" requestKey={requestKey} error={error} submit="Cambiar plan">
      <p className="text-sm text-slate-700">
        El nuevo plan empieza con tu próximo cobro, el {subscription.nextBillingDate ? longDate(subscription.nextBillingDate) : "próximo periodo"}. Hasta
        entonces todo sigue igual.
      </p>
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-semibold">Plan desde el próximo cobro</legend>
        {plans.map((plan) => (
          <label
            key={plan.value}
            className="flex items-start gap-3 rounded-xl border border-slate-200 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
          >
            <input type="radio" name="frequency" value={plan.value} defaultChecked={plan.value !== planned} className="mt-1" />
            <span>
              <span className="font-semibold">{plan.label}</span>
              {plan.value === planned ? " (tu plan actual)" : ""}
              <span className="block text-sm text-slate-700">{plan.detail}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </IntentForm>
  );
}

/**
 * Issue 41 (decision 0097): how often the deliveries come, from the next charge. Each option says
 * what that charge would be (the products are one delivery's); the server prices it again.
 */
function CadenceForm({ subscription, options, requestKey, error }: Omit<Props, "openAction" | "actionError"> & { error: ActionError | null }) {
  const current = cadenceOf(subscription.deliveryCadence);
  const frequency = options.pendingFrequency ?? subscription.frequency;
  const deliveryCents = subscription.items.reduce((sum, item) => sum + item.unitPriceCents * item.quantity, 0);
  const [chosen, setChosen] = useState(deliveryCadences.find((cadence) => cadence !== current)!);
  return (
    <IntentForm subscriptionId={subscription.id} intent="cadence" requestKey={requestKey} error={error} submit="Cambiar entregas">
      <p className="text-sm text-slate-700">
        El cambio empieza con tu próximo cobro, el {subscription.nextBillingDate ? longDate(subscription.nextBillingDate) : "próximo periodo"}: lo ya pagado
        llega como estaba previsto.
      </p>
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-semibold">Entregas desde el próximo cobro</legend>
        {deliveryCadences.map((cadence) => (
          <label
            key={cadence}
            className="flex items-start gap-3 rounded-xl border border-slate-200 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
          >
            <input type="radio" name="cadence" value={cadence} checked={chosen === cadence} onChange={() => setChosen(cadence)} className="mt-1" />
            <span>
              <span className="font-semibold">{deliveryCadenceLabels[cadence]}</span>
              {cadence === current ? " (la actual)" : ""}
              <span className="block text-sm text-slate-700">
                {deliveriesPerMonth(cadence)} {deliveriesPerMonth(cadence) === 1 ? "entrega" : "entregas"} al mes ·{" "}
                {perPeriod(
                  orderSummary(monthlySubtotalCents(deliveryCents, cadence), "subscription", frequency === "anual" ? "anual" : "mensual").totalCents,
                  frequency,
                )}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <p className="text-sm text-slate-700" data-testid="cadence-change-terms">
        {cadenceTerms(chosen)}
      </p>
    </IntentForm>
  );
}

function CancelForm({ subscription, requestKey, error }: { subscription: SubscriptionView; requestKey: string; error: ActionError | null }) {
  const ending =
    subscription.status === "past_due" || !subscription.nextBillingDate
      ? "Tu suscripción terminará de inmediato."
      : `No haremos más cobros: recibirás lo que ya pagaste y tu suscripción terminará el ${longDate(subscription.nextBillingDate)}. Puedes deshacerlo antes de esa fecha.`;
  return (
    <IntentForm subscriptionId={subscription.id} intent="cancel" requestKey={requestKey} error={error} submit="Cancelar suscripción" tone="danger">
      <p className="text-sm text-slate-700">{ending}</p>
      <fieldset className="space-y-2" aria-invalid={error?.field === "reason"}>
        <legend className="mb-1 text-sm font-semibold">¿Por qué cancelas?</legend>
        {CANCEL_REASONS.map((reason) => (
          <label key={reason.value} className="flex items-center gap-3 text-sm">
            <input type="radio" name="reason" value={reason.value} required />
            {reason.label}
          </label>
        ))}
      </fieldset>
      <div>
        <label htmlFor="cancel-detail" className="mb-1 block text-sm font-semibold">
          Cuéntanos más (obligatorio si elegiste «Otro motivo»)
        </label>
        <textarea id="cancel-detail" name="detail" rows={3} maxLength={500} aria-invalid={error?.field === "detail"} className={inputClass} />
      </div>
    </IntentForm>
  );
}
