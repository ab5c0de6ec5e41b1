import { Link } from "react-router";
import type { SubscriptionView } from "@server/subscriptions/index.server";
import { StatusBadge } from "~/components/account/status-badge";
import { deliveryWindowLabels } from "@core/delivery-schedule";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { orderSummary } from "@core/pricing";
import { cadenceOf, cadenceTerms, deliveryCadenceLabels, deliveriesPerMonth } from "@core/delivery-cadence";
import { frequencyLabel, subscriptionStatusLabel } from "~/lib/subscription-labels";

const dateOrDash = (date: string | null) => (date ? formatLimaDate(date, { weekday: "long", day: "numeric", month: "long", year: "numeric" }) : "—");

/** A subscription as it stands: plan, amounts, next dates, delivery, card and the supported cause. */
export function SubscriptionSummary({ subscription, detailLink }: { subscription: SubscriptionView; detailLink?: boolean }) {
  const discount = subscription.discountRateBasisPoints / 100;
  // The pace of the period paid now; a change (decision 0097) applies from the next charge.
  const cadence = cadenceOf(subscription.paidDeliveryCadence ?? subscription.deliveryCadence);
  const nextCadence = cadenceOf(subscription.deliveryCadence);
  const perMonth = deliveriesPerMonth(nextCadence);
  const rows: [string, string][] = [
    ["Plan", `${frequencyLabel(subscription.frequency)} (${discount}% de descuento)`],
    // Decision 0097: how often it is delivered, and the 5th-week rule in the customer's words.
    [
      "Entregas",
      cadence === "monthly" ? "Mensual: una entrega al mes, el mismo día de la semana" : `${deliveryCadenceLabels[cadence]}. ${cadenceTerms(cadence)}`,
    ],
    [subscription.frequency === "anual" ? "Cobro anual" : "Cobro mensual", formatSoles(subscription.amountCents)],
    ["Próximo cobro", dateOrDash(subscription.nextBillingDate)],
    ["Próxima entrega", dateOrDash(subscription.upcomingDeliveryDate)],
    ...(subscription.nextDeliveryDate && subscription.nextDeliveryDate !== subscription.upcomingDeliveryDate && subscription.status !== "cancelled"
      ? [["Entrega siguiente", dateOrDash(subscription.nextDeliveryDate)] as [string, string]]
      : []),
    ["Entrega", `${subscription.address}, ${subscription.districtName} · ${deliveryWindowLabels[subscription.deliveryWindow] ?? subscription.deliveryWindow}`],
    ["Tarjeta", subscription.cardLast4 ? `${subscription.cardBrand ?? "Tarjeta"} terminada en ${subscription.cardLast4}` : "Sin tarjeta registrada"],
    ["Organización que apoyas", subscription.organization?.title ?? "Sin elegir"],
  ];
  if (subscription.pausedUntil) rows.splice(2, 0, ["Pausada hasta", dateOrDash(subscription.pausedUntil)]);
  if (subscription.pendingFrequency) {
    const pending = subscription.pendingFrequency === "anual" ? "anual" : "mensual";
    const amount = formatSoles(orderSummary(subscription.baseAmountCents, "subscription", pending).totalCents);
    rows.splice(1, 0, ["Desde el próximo cobro", `Plan ${pending}: ${amount} ${pending === "anual" ? "al año" : "al mes"}`]);
  }
  if (nextCadence !== cadence) rows.splice(2, 0, ["Entregas desde el próximo cobro", `${deliveryCadenceLabels[nextCadence]}. ${cadenceTerms(nextCadence)}`]);
  if (subscription.endsOn && subscription.status !== "cancelled") rows.splice(2, 0, ["Termina el", dateOrDash(subscription.endsOn)]);
  return (
    <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6" aria-labelledby={`subscription-${subscription.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`subscription-${subscription.id}`} className="text-lg font-bold">
          Suscripción {subscription.subscriptionNumber}
        </h2>
        <StatusBadge
          label={subscriptionStatusLabel(subscription.status)}
          tone={subscription.status === "active" ? "green" : subscription.status === "cancelled" ? "red" : "yellow"}
        />
      </div>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-slate-500">{label}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-6 font-semibold">Productos de cada entrega</h3>
      <ul className="mt-2 divide-y divide-slate-100">
        {subscription.items.map((item) => (
          <li key={item.id} className="flex justify-between gap-3 py-2 text-sm">
            <span>
              {item.quantity} × {item.title}
              {item.variantTitle ? ` — ${item.variantTitle}` : ""}
            </span>
            <span className="font-medium">{formatSoles(item.unitPriceCents * item.quantity)}</span>
          </li>
        ))}
        <li className="flex justify-between gap-3 py-2 text-sm text-slate-600">
          <span>{perMonth === 1 ? "Subtotal mensual sin descuento" : `Subtotal mensual sin descuento (${perMonth} entregas)`}</span>
          <span>{formatSoles(subscription.baseAmountCents)}</span>
        </li>
      </ul>
      {detailLink && (
        <Link to={`/dashboard/suscripciones/${subscription.id}`} className="mt-4 inline-block font-semibold text-brand-800 underline">
          Ver detalle e historial
        </Link>
      )}
    </section>
  );
}

/** What the customer must know first: a pause, a cancellation waiting for its date, an unpaid period, a plan change. */
export function SubscriptionNotices({ subscription, resume }: { subscription: SubscriptionView; resume?: React.ReactNode }) {
  const notices: React.ReactNode[] = [];
  if (subscription.status === "pending_payment") {
    notices.push(
      <>
        Tu suscripción aún no está activa.{" "}
        <Link to={`/suscripcion/tarjeta/${subscription.id}`} className="font-semibold underline">
          Registra tu tarjeta
        </Link>{" "}
        para empezar.
      </>,
    );
  }
  if (subscription.status === "past_due") {
    notices.push(
      <>
        No pudimos cobrar tu suscripción y está pausada.{" "}
        <Link to={`/suscripcion/tarjeta/${subscription.id}?modo=actualizar`} className="font-semibold underline">
          Actualiza tu tarjeta
        </Link>{" "}
        para reactivarla.
      </>,
    );
  }
  if (subscription.status === "paused" && subscription.pausedUntil) {
    notices.push(
      <div className="space-y-3">
        <p>
          Pausada hasta el {dateOrDash(subscription.pausedUntil)}: no haremos cobros ni entregas hasta entonces. Después, tu próximo cobro será el{" "}
          {dateOrDash(subscription.nextBillingDate)} y tu próxima entrega el {dateOrDash(subscription.nextDeliveryDate)}.
        </p>
        {resume}
      </div>,
    );
  }
  if (subscription.endsOn && subscription.status !== "cancelled")
    notices.push(`Cancelaste tu suscripción: no haremos más cobros y terminará el ${dateOrDash(subscription.endsOn)}.`);
  if (subscription.pendingFrequency && !subscription.endsOn) {
    notices.push(
      `Desde tu próximo cobro, el ${dateOrDash(subscription.nextBillingDate)}, pasarás al plan ${frequencyLabel(subscription.pendingFrequency).toLowerCase()}.`,
    );
  }
  if (notices.length === 0) return null;
  return (
    <ul className="space-y-2">
      {notices.map((notice, index) => (
        <li key={index} className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {notice}
        </li>
      ))}
    </ul>
  );
}

export function SubscriptionHistory({ history }: { history: SubscriptionView["history"] }) {
  return (
    <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6" aria-labelledby="subscription-history">
      <h2 id="subscription-history" className="text-lg font-bold">
        Historial
      </h2>
      {history.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">Sin cambios todavía.</p>
      ) : (
        <ol className="mt-3 space-y-2 text-sm">
          {history.map((event) => (
            <li key={event.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 border-b border-slate-100 pb-2 last:border-0">
              <span className="min-w-0 flex-1">{event.description}</span>
              <time dateTime={event.createdAt} className="text-slate-500">
                {formatLimaDate(limaToday(new Date(event.createdAt)), { day: "numeric", month: "short", year: "numeric" })}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
