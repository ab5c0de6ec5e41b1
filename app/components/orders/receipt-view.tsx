import { Link } from "react-router";
import type { OrderReceipt } from "@server/orders/index.server";
import { pausedDeliveryNote } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { orderStatusLabel, paymentMethodLabels } from "@core/order-labels";

/** Spec §4 receipt colours: paid green, failed or cancelled red, anything else yellow. */
export function statusTone(status: string): string {
  if (status === "paid" || status === "delivered") return "bg-green-100 text-green-900";
  if (status === "failed" || status === "cancelled" || status === "canceled") return "bg-red-100 text-red-900";
  return "bg-amber-100 text-amber-900";
}

export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold ${statusTone(status)}`} data-testid="order-status">
      {orderStatusLabel(status)}
    </span>
  );
}

export function ReceiptView({ receipt }: { receipt: OrderReceipt }) {
  const details = receipt.details;
  return (
    <article className="rounded-3xl border border-slate-100 bg-white p-6 shadow-sm print:border-0 print:shadow-none" data-testid="receipt">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-bold text-brand-900">Pedido {receipt.orderNumber}</h2>
        {receipt.payAtDoor ? (
          <span className="inline-block rounded-full bg-green-100 px-3 py-1 text-sm font-semibold text-green-900" data-testid="order-status">
            Confirmado · pagas al recibir
          </span>
        ) : (
          <OrderStatusBadge status={receipt.status} />
        )}
      </div>
      {receipt.payAtDoor && (
        <p className="mt-3 rounded-xl bg-green-50 p-3 font-semibold text-green-900" data-testid="pay-at-door">
          {receipt.payAtDoor}.
        </p>
      )}
      {details ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {details.customerName} · {details.customerEmail}
            {details.invoiceNumber && <> · Comprobante {details.invoiceNumber}</>}
          </p>
          {details.plan && (
            <p className="mt-1 text-sm font-semibold text-slate-800" data-testid="order-plan">
              {details.plan}
            </p>
          )}
          <table className="mt-4 w-full text-left text-sm">
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-2">
                  Producto
                </th>
                <th scope="col" className="py-2 text-right">
                  Cantidad
                </th>
                <th scope="col" className="py-2 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {details.items.map((item, index) => (
                <tr key={index}>
                  <td className="py-2">
                    {item.title}
                    {item.variantTitle && <span className="text-slate-600"> · {item.variantTitle}</span>}
                  </td>
                  <td className="py-2 text-right">{item.quantity}</td>
                  <td className="py-2 text-right">{formatSoles(item.lineTotalCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="mt-4 space-y-1 border-t border-slate-100 pt-3 text-sm">
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd>{formatSoles(details.subtotalCents)}</dd>
            </div>
            {details.discountCents > 0 && (
              <div className="flex justify-between">
                <dt>Descuento</dt>
                <dd>- {formatSoles(details.discountCents)}</dd>
              </div>
            )}
            <div className="flex justify-between">
              <dt>Envío</dt>
              <dd>{details.shippingCents === 0 ? "Gratis" : formatSoles(details.shippingCents)}</dd>
            </div>
            {details.garantiaCents > 0 && (
              <div className="flex justify-between gap-3">
                <dt>
                  Garantía de bidón ({details.garantiaUnits} {details.garantiaUnits === 1 ? "bidón" : "bidones"})
                </dt>
                <dd data-testid="receipt-garantia">{formatSoles(details.garantiaCents)}</dd>
              </div>
            )}
            <div className="flex justify-between text-base font-bold">
              <dt>Total</dt>
              <dd data-testid="receipt-total">{formatSoles(details.totalCents)}</dd>
            </div>
            {details.garantiaCreditCents > 0 && (
              <div className="flex justify-between gap-3">
                <dt>Pagado con crédito de garantía</dt>
                <dd>- {formatSoles(details.garantiaCreditCents)}</dd>
              </div>
            )}
            {details.paymentMethod && (
              <div className="flex justify-between text-slate-600">
                <dt>Medio de pago</dt>
                <dd>{paymentMethodLabels[details.paymentMethod] ?? details.paymentMethod}</dd>
              </div>
            )}
          </dl>
          <p className="mt-4 text-sm">
            <strong>Entrega:</strong>{" "}
            {details.deliveryDate === null ? (
              <span data-testid="receipt-paused">{pausedDeliveryNote(details.deliveryPausedUntil)}</span>
            ) : (
              <>
                <span className="inline-block first-letter:uppercase">{formatLimaDate(details.deliveryDate)}</span>,{" "}
                {deliveryWindowLabel(details.deliveryWindow)}
              </>
            )}{" "}
            · {details.address}, {details.districtName}
          </p>
          {details.requestedDeliveryDate && (
            <p className="mt-1 text-sm text-slate-600" data-testid="receipt-rescheduled">
              Reprogramada: habías pedido el {formatLimaDate(details.requestedDeliveryDate, { day: "numeric", month: "long" })}.
            </p>
          )}
        </>
      ) : (
        <p className="mt-3 text-sm text-slate-600">Para ver el detalle, abre el enlace que te enviamos por correo.</p>
      )}
    </article>
  );
}

export function ShopLinks() {
  return (
    <Link to="/tienda" className="no-print rounded-full border border-brand-700 px-5 py-2.5 font-semibold text-brand-800 hover:bg-brand-50">
      Volver a la tienda
    </Link>
  );
}
