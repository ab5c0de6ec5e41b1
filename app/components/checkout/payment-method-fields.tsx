import { doorPaymentRefusal, payAtDoorSentence, DOOR_METHOD_BY_CHOICE } from "@core/door-payment";
import { solesToCents } from "@core/catalog-schemas";
import { formatSoles } from "@core/money";
import type { DoorPaymentOffer } from "@server/checkout/index.server";
import type { CheckoutFieldBindings } from "./checkout-form-state";
import { CheckoutTextField } from "./text-field";

const optionClass =
  "flex cursor-pointer items-start gap-3 rounded-xl border border-slate-200 bg-white p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50";

/**
 * Issue 38: pay online or at the door. Contra entrega is offered where the shop's settings allow
 * it for the district, the total and the customer; the server checks the same rules again.
 */
export function PaymentMethodFieldset({
  bindings,
  offer,
  districtId,
  totalCents,
}: {
  bindings: CheckoutFieldBindings;
  offer: DoorPaymentOffer;
  districtId: number | null;
  totalCents: number;
}) {
  const { form, update, errorFor } = bindings;
  const refusal = doorPaymentRefusal(offer.settings, {
    districtOffers: districtId === null || offer.districtIds.includes(districtId),
    totalCents,
    hasDeliveredOrder: offer.hasDeliveredOrder,
  });
  const atDoor = form.formaPago === "contra_entrega" && !refusal;
  const paysWith = solesToCents(form.pagaCon);
  return (
    <fieldset className="space-y-3" data-testid="payment-method">
      <legend className="mb-3 text-xl font-bold text-brand-900">Forma de pago</legend>
      <label className={optionClass}>
        <input type="radio" name="formaPago" value="en_linea" checked={!atDoor} onChange={() => update("formaPago", "en_linea")} className="mt-1" />
        <span>
          <span className="block font-semibold">Pagar en línea</span>
          <span className="block text-sm text-slate-600">Tarjeta, Yape, banca móvil, agentes o billeteras.</span>
        </span>
      </label>
      <label className={`${optionClass} ${refusal ? "cursor-not-allowed opacity-70" : ""}`}>
        <input
          type="radio"
          name="formaPago"
          value="contra_entrega"
          checked={atDoor}
          disabled={Boolean(refusal)}
          onChange={() => update("formaPago", "contra_entrega")}
          className="mt-1"
        />
        <span>
          <span className="block font-semibold">Pago contra entrega</span>
          <span className="block text-sm text-slate-600">{refusal ?? "Pagas al recibir tu pedido: en efectivo o con Yape a la cuenta de la tienda."}</span>
        </span>
      </label>
      {atDoor && (
        <div className="space-y-3 rounded-xl bg-slate-50 p-3">
          <div className="flex flex-wrap gap-4" role="radiogroup" aria-label="¿Cómo pagas al recibir?">
            {(["efectivo", "yape"] as const).map((method) => (
              <label key={method} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="metodoContraEntrega"
                  value={method}
                  checked={form.metodoContraEntrega === method}
                  onChange={() => update("metodoContraEntrega", method)}
                />
                {method === "efectivo" ? "Efectivo" : "Yape al repartidor"}
              </label>
            ))}
          </div>
          {form.metodoContraEntrega === "efectivo" && (
            <CheckoutTextField
              bindings={bindings}
              field="pagaCon"
              label="¿Con cuánto pagas? (opcional, para llevarte vuelto)"
              inputMode="decimal"
              placeholder="100"
            />
          )}
          <p className="text-sm font-semibold text-green-900" data-testid="pay-at-door-preview">
            {payAtDoorSentence(totalCents, DOOR_METHOD_BY_CHOICE[form.metodoContraEntrega], form.metodoContraEntrega === "efectivo" ? paysWith : null)}.
          </p>
          {form.metodoContraEntrega === "efectivo" && paysWith !== null && paysWith < totalCents && (
            <p className="text-sm text-red-700">El monto debe ser de al menos {formatSoles(totalCents)}.</p>
          )}
        </div>
      )}
      {errorFor("formaPago") && <p className="text-sm text-red-700">{errorFor("formaPago")}</p>}
    </fieldset>
  );
}
