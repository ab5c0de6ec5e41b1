import { formatSoles } from "@core/money";
import { orderSummary, type PurchaseType, type SubscriptionFrequency } from "@core/pricing";
import { monthlySubtotalCents, subscriptionPlanLabel, type DeliveryCadence } from "@core/delivery-cadence";
import { deliveriesPerPeriod } from "@core/subscription-dates";

/** The subtotal's label: what the plan's period holds (decision 0097: a weekly or biweekly period counts deliveries). */
function subtotalLabel(subscription: boolean, frequency: SubscriptionFrequency, cadence: DeliveryCadence): string {
  if (!subscription) return "Subtotal";
  if (cadence !== "monthly") return `Subtotal (${deliveriesPerPeriod(frequency, cadence)} entregas${frequency === "anual" ? " en 12 meses" : ""})`;
  return frequency === "anual" ? "Subtotal (12 meses)" : "Subtotal";
}

/** The bidón garantía the checkout shows (decision 0075): its own line, and a credit that pays part of the total. */
export interface SummaryGarantia {
  units: number;
  cents: number;
  creditCents: number;
  /** Shown under the lines (how the garantía is decided, for a guest). */
  note?: string;
}

/** One line of what is being bought, as the cart holds it (issue 41: the checkout names what is paid for). */
export interface SummaryLine {
  key: string;
  title: string;
  variantTitle: string | null;
  quantity: number;
  unitCents: number;
}

/** Spec §9 summary: subtotal, discount, shipping 'Gratis', taxes 'Incluido', the garantía (decision 0075), total. */
export function OrderSummaryBox({
  cartSubtotalCents,
  purchaseType,
  frequency,
  cadence = "monthly",
  garantia,
  lines,
  children,
}: {
  cartSubtotalCents: number;
  /** A subscription's delivery cadence (decision 0097): the cart is one delivery, the plan prices the month's. */
  cadence?: DeliveryCadence;
  /** The products, each with its presentation, quantity, price and line total (the checkout's summary). */
  lines?: readonly SummaryLine[];
  purchaseType: PurchaseType;
  frequency: SubscriptionFrequency;
  garantia?: SummaryGarantia | null;
  children?: React.ReactNode;
}) {
  const subscription = purchaseType === "subscription";
  const summary = orderSummary(subscription ? monthlySubtotalCents(cartSubtotalCents, cadence) : cartSubtotalCents, purchaseType, frequency);
  const garantiaCents = garantia?.cents ?? 0;
  const creditCents = garantia?.creditCents ?? 0;
  const totalCents = summary.totalCents + garantiaCents;
  return (
    <section aria-labelledby="order-summary-title" className="rounded-3xl border border-slate-100 bg-white p-6 shadow-sm">
      <h2 id="order-summary-title" className="text-xl font-bold text-brand-900">
        Resumen del pedido
      </h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="summary-purchase">
        {subscription ? subscriptionPlanLabel(frequency, cadence) : "Compra única"}
      </p>
      {subscription && cadence !== "monthly" && lines && lines.length > 0 && <p className="mt-3 text-sm font-semibold text-slate-700">Cada entrega lleva:</p>}
      {lines && lines.length > 0 && (
        <ul className="mt-4 space-y-2 border-b border-slate-100 pb-3 text-sm text-slate-800" aria-label="Productos del pedido" data-testid="summary-lines">
          {lines.map((line) => (
            <li key={line.key} className="flex justify-between gap-3" data-testid="summary-line">
              <span className="min-w-0">
                <span className="font-semibold">{line.title}</span>
                {line.variantTitle && <span className="text-slate-600"> · {line.variantTitle}</span>}
                <span className="block text-slate-600">
                  {line.quantity} × {formatSoles(line.unitCents)}
                </span>
              </span>
              <span className="shrink-0 font-semibold">{formatSoles(line.unitCents * line.quantity)}</span>
            </li>
          ))}
        </ul>
      )}
      <dl className="mt-4 space-y-2 text-slate-700">
        <div className="flex justify-between">
          <dt>{subtotalLabel(subscription, frequency, cadence)}</dt>
          <dd data-testid="summary-subtotal">{formatSoles(summary.subtotalCents)}</dd>
        </div>
        {subscription && (
          <div className="flex justify-between text-leaf-700">
            <dt>Descuento ({Math.round(summary.discountRate * 100)}%)</dt>
            <dd data-testid="summary-discount">- {formatSoles(summary.discountCents)}</dd>
          </div>
        )}
        <div className="flex justify-between">
          <dt>Envío</dt>
          <dd>Gratis</dd>
        </div>
        <div className="flex justify-between">
          <dt>Impuestos</dt>
          <dd>Incluido</dd>
        </div>
        {garantiaCents > 0 && (
          <div className="flex justify-between gap-3">
            <dt>Garantía de bidón{garantia && garantia.units > 0 ? ` (${garantia.units} ${garantia.units === 1 ? "bidón" : "bidones"})` : ""}</dt>
            <dd data-testid="summary-garantia">{formatSoles(garantiaCents)}</dd>
          </div>
        )}
        <div className="flex justify-between border-t border-slate-100 pt-3 text-lg font-bold text-brand-900">
          <dt>Total</dt>
          <dd data-testid="summary-total">{formatSoles(totalCents)}</dd>
        </div>
        {creditCents > 0 && (
          <>
            <div className="flex justify-between gap-3 text-leaf-700">
              <dt>Crédito de tu garantía</dt>
              <dd data-testid="summary-garantia-credit">- {formatSoles(creditCents)}</dd>
            </div>
            <div className="flex justify-between font-bold text-brand-900">
              <dt>A pagar</dt>
              <dd data-testid="summary-to-pay">{formatSoles(totalCents - creditCents)}</dd>
            </div>
          </>
        )}
      </dl>
      {garantia?.note && (
        <p className="mt-3 text-xs text-slate-600" data-testid="summary-garantia-note">
          {garantia.note}
        </p>
      )}
      {children}
    </section>
  );
}
