import type { OrderLine } from "@server/orders/index.server";
import { formatSoles } from "@core/money";

/** The products of an order: title, variant, quantity, unit price and line total (spec §2). */
export function OrderLinesTable({ lines }: { lines: OrderLine[] }) {
  // Phones keep two columns: quantity and unit price move under the product's name.
  return (
    <table className="w-full text-left text-sm" data-testid="order-lines">
      <thead className="text-slate-600">
        <tr className="border-b border-slate-200">
          <th scope="col" className="py-2 pr-3 font-semibold">
            Producto
          </th>
          <th scope="col" className="hidden px-3 py-2 text-right font-semibold sm:table-cell">
            Cantidad
          </th>
          <th scope="col" className="hidden px-3 py-2 text-right font-semibold sm:table-cell">
            Precio unitario
          </th>
          <th scope="col" className="py-2 pl-3 text-right font-semibold">
            Total
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {lines.map((line, index) => (
          <tr key={index}>
            <td className="py-2 pr-3">
              <span className="font-medium text-slate-900">{line.title}</span>
              {line.variantTitle && <span className="block text-slate-600">{line.variantTitle}</span>}
              <span className="block text-slate-600 sm:hidden">
                {line.quantity} × {formatSoles(line.unitPriceCents)}
              </span>
            </td>
            <td className="hidden px-3 py-2 text-right sm:table-cell">{line.quantity}</td>
            <td className="hidden px-3 py-2 text-right whitespace-nowrap sm:table-cell">{formatSoles(line.unitPriceCents)}</td>
            <td className="py-2 pl-3 text-right whitespace-nowrap">{formatSoles(line.lineTotalCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Spec §2/§9 summary: subtotal, discount when there is one, shipping 'Gratis' when zero, taxes
 * 'Incluido' (prices include IGV, decisions.md), total.
 */
export function OrderTotals({
  totals,
}: {
  totals: {
    subtotalCents: number;
    discountCents: number;
    shippingCents: number;
    totalCents: number;
    /** Decision 0075: the bidón garantía inside the total, and the credit that paid part of it. */
    garantiaCents?: number;
    garantiaUnits?: number;
    garantiaCreditCents?: number;
  };
}) {
  const rows: [string, string][] = [["Subtotal", formatSoles(totals.subtotalCents)]];
  if (totals.discountCents > 0) rows.push(["Descuento", `- ${formatSoles(totals.discountCents)}`]);
  rows.push(["Envío", totals.shippingCents === 0 ? "Gratis" : formatSoles(totals.shippingCents)]);
  rows.push(["Impuestos (IGV)", "Incluido"]);
  const units = totals.garantiaUnits ?? 0;
  if ((totals.garantiaCents ?? 0) > 0) rows.push([`Garantía de bidón (${units} ${units === 1 ? "bidón" : "bidones"})`, formatSoles(totals.garantiaCents!)]);
  const creditCents = totals.garantiaCreditCents ?? 0;
  return (
    <dl className="space-y-2 text-sm" data-testid="order-totals">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-4">
          <dt className="text-slate-600">{label}</dt>
          <dd className="text-slate-900">{value}</dd>
        </div>
      ))}
      <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base font-bold">
        <dt>Total</dt>
        <dd data-testid="order-total">{formatSoles(totals.totalCents)}</dd>
      </div>
      {creditCents > 0 && (
        <>
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">Pagado con crédito de garantía</dt>
            <dd className="text-slate-900">- {formatSoles(creditCents)}</dd>
          </div>
          <div className="flex justify-between gap-4 font-semibold">
            <dt>Cobrado</dt>
            <dd>{formatSoles(totals.totalCents - creditCents)}</dd>
          </div>
        </>
      )}
    </dl>
  );
}
