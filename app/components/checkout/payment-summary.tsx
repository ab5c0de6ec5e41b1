import { OrderSummaryBox, type SummaryGarantia, type SummaryLine } from "~/components/shop/order-summary";
import { SHIPPING_INCOMPLETE } from "@core/checkout-schema";
import type { PurchaseType, SubscriptionFrequency } from "@core/pricing";
import type { DeliveryCadence } from "@core/delivery-cadence";
import { AccountLinks } from "./subscription-options";
import type { CheckoutActionData } from "./checkout-form";

/** The totals, what still stops the order (client checks and the server's answer) and the submit button. */
export function PaymentSummary({
  subtotalCents,
  purchaseType,
  frequency,
  cadence,
  result,
  itemsError,
  shippingInvalid,
  submitted,
  canSubmit,
  submitting,
  garantia,
  lines,
}: {
  subtotalCents: number;
  /** What is being bought (issue 41): the customer sees every product before paying. */
  lines: readonly SummaryLine[];
  purchaseType: PurchaseType;
  frequency: SubscriptionFrequency;
  cadence: DeliveryCadence;
  /** The checkout action's refusal, if the last submit was refused. */
  result: CheckoutActionData | null;
  itemsError: string | undefined;
  shippingInvalid: boolean;
  /** Whether the customer already tried to submit: the shipping hint turns into an error. */
  submitted: boolean;
  canSubmit: boolean;
  submitting: boolean;
  /** The bidón garantía line (decision 0075), once the cart's bidones are known. */
  garantia?: SummaryGarantia | null;
}) {
  return (
    <OrderSummaryBox cartSubtotalCents={subtotalCents} purchaseType={purchaseType} frequency={frequency} cadence={cadence} garantia={garantia} lines={lines}>
      <div role="alert" className="mt-4 space-y-2 text-sm">
        {shippingInvalid && submitted && <p className="text-red-700">{SHIPPING_INCOMPLETE}</p>}
        {itemsError && <p className="text-red-700">{itemsError}</p>}
        {result?.message && <p className="rounded-xl bg-red-50 p-3 text-red-800">{result.message}</p>}
        {result?.accountRequired && <AccountLinks />}
        {result?.inlineError && <p className="text-red-700">{result.inlineError}</p>}
      </div>
      <button
        type="submit"
        disabled={!canSubmit || submitting}
        className="mt-4 w-full rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400"
      >
        {submitting ? "Procesando…" : "Finalizar compra"}
      </button>
      {shippingInvalid && !submitted && <p className="mt-2 text-sm text-slate-600">{SHIPPING_INCOMPLETE}</p>}
    </OrderSummaryBox>
  );
}
