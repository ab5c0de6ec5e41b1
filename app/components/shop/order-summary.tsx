import { formatSoles } from "@core/money";
import { orderSummary, type PurchaseType, type SubscriptionFrequency } from "@core/pricing";

const frequencyLabels: Record<SubscriptionFrequency, string> = { mensual: "Mensual", anual: "Anual" };

/** Spec §9 summary: subtotal, discount, shipping 'Gratis', taxes 'Incluido', total. */
export function OrderSummaryBox({
  cartSubtotalCents,
  purchaseType,
  frequency,
  children,
}: {
  cartSubtotalCents: number;
  purchaseType: PurchaseType;
  frequency: SubscriptionFrequency;
  children?: React.ReactNode;
}) {
  const summary = orderSummary(cartSubtotalCents, purchaseType, frequency);
  const subscription = purchaseType === "subscription";
  return (
    <section aria-labelledby="order-summary-title" className="rounded-3xl border border-slate-100 bg-white p-6 shadow-sm">
      <h2 id="order-summary-title" className="text-xl font-bold text-brand-900">
        Resumen del pedido
      </h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="summary-purchase">
        {subscription ? `Suscripción ${frequencyLabels[frequency]}` : "Compra única"}
      </p>
      <dl className="mt-4 space-y-2 text-slate-700">
        <div className="flex justify-between">
          <dt>{subscription && frequency === "anual" ? "Subtotal (12 meses)" : "Subtotal"}</dt>
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
        <div className="flex justify-between border-t border-slate-100 pt-3 text-lg font-bold text-brand-900">
          <dt>Total</dt>
          <dd data-testid="summary-total">{formatSoles(summary.totalCents)}</dd>
        </div>
      </dl>
      {children}
    </section>
  );
}
