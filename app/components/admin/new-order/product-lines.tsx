import type { RefObject } from "react";
import { FieldError } from "~/components/ui/form-field";
import { formatSoles } from "@core/money";
import { MINIMUM_ORDER_CENTS } from "@core/pricing";
import { lineKey, quantityField } from "@core/staff-order-form";
import type { CallerPicture, OneTimeOrderPreview, SellableLine } from "./types";

const lineTitle = (line: { title: string; variantTitle: string | null }) => (line.variantTitle ? `${line.title} · ${line.variantTitle}` : line.title);

/**
 * The catalogue at today's one-time prices, one quantity box per product and presentation, with
 * "Lo de siempre" (the caller's last order). Without JavaScript "Lo de siempre" is a submit that
 * comes back with the quantities filled; with it, it fills them at once.
 */
export function ProductLines({
  sellable,
  quantities,
  onQuantity,
  lastOrder,
  onUsual,
  usualRef,
  focusUsual,
  error,
}: {
  sellable: SellableLine[];
  quantities: Record<string, string>;
  onQuantity: (key: string, value: string) => void;
  lastOrder: CallerPicture["lastOrder"];
  onUsual: (event: React.MouseEvent<HTMLButtonElement>) => void;
  usualRef: RefObject<HTMLButtonElement | null>;
  focusUsual: boolean;
  error: string | undefined;
}) {
  return (
    <fieldset className="min-w-0" aria-describedby={error ? "items-error" : undefined}>
      <legend className="mb-2 text-lg font-bold text-slate-900">Productos</legend>
      {lastOrder && (
        <div className="mb-3 flex flex-wrap items-center gap-3">
          <button
            ref={usualRef}
            type="submit"
            name="intent"
            value="lo_de_siempre"
            formNoValidate
            onClick={onUsual}
            autoFocus={focusUsual}
            className="rounded-xl bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            Lo de siempre
          </button>
          <p className="min-w-0 text-sm break-words text-slate-700" data-testid="usual-order">
            {lastOrder.orderNumber}: {lastOrder.lines.map((line) => `${line.quantity} × ${line.title}`).join(", ")}
          </p>
        </div>
      )}
      <FieldError id="items-error" message={error} className="mb-2 rounded-xl bg-red-50 px-3 py-2 text-sm text-red-800" />
      <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-100" data-testid="product-lines">
        {sellable.map((line) => {
          const key = lineKey(line);
          const id = `cantidad-${key.replace(":", "-")}`;
          return (
            <li key={key} className="flex items-center justify-between gap-3 px-3 py-2">
              <label htmlFor={id} className="min-w-0 text-sm break-words">
                <span className="font-semibold text-slate-900">{lineTitle(line)}</span>{" "}
                <span className="whitespace-nowrap text-slate-600">{formatSoles(line.unitPriceCents)}</span>
              </label>
              <input
                id={id}
                name={quantityField(key)}
                type="number"
                inputMode="numeric"
                min={0}
                max={999}
                step={1}
                value={quantities[key] ?? ""}
                onChange={(event) => onQuantity(key, event.target.value)}
                placeholder="0"
                className="w-20 shrink-0 rounded-xl border border-slate-300 bg-white px-2 py-2 text-right text-base"
              />
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** The server's total of the lines as typed: what the order will cost if placed now. */
export function OrderTotal({ preview, pending }: { preview: OneTimeOrderPreview | null; pending: boolean }) {
  return (
    <section aria-labelledby="total-titulo" aria-busy={pending} className="rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-100" data-testid="order-total">
      <h3 id="total-titulo" className="mb-2 font-bold text-slate-900">
        Total (precios del sistema)
      </h3>
      {!preview || preview.lines.length === 0 ? (
        <p className="text-sm text-slate-700">Agrega productos para ver el total.</p>
      ) : (
        <>
          <ul className="mb-2 space-y-1 text-sm text-slate-700">
            {preview.lines.map((line) => (
              <li key={lineKey(line)} className="flex justify-between gap-3">
                <span className="min-w-0 break-words">
                  {line.quantity} × {lineTitle(line)}
                </span>
                <span className="whitespace-nowrap">{formatSoles(line.lineTotalCents)}</span>
              </li>
            ))}
          </ul>
          <dl className="space-y-1 border-t border-slate-200 pt-2 text-sm text-slate-800">
            <div className="flex justify-between gap-3">
              <dt>Subtotal</dt>
              <dd>{formatSoles(preview.subtotalCents)}</dd>
            </div>
            {preview.garantiaCents > 0 && (
              <div className="flex justify-between gap-3">
                <dt>Garantía de bidones ({preview.garantiaUnits})</dt>
                <dd>{formatSoles(preview.garantiaCents)}</dd>
              </div>
            )}
            {preview.creditCents > 0 && (
              <div className="flex justify-between gap-3">
                <dt>Crédito de garantía</dt>
                <dd>- {formatSoles(preview.creditCents)}</dd>
              </div>
            )}
            <div className="flex justify-between gap-3 text-base font-bold text-slate-900">
              <dt>Total a pagar</dt>
              <dd data-testid="order-total-amount">{formatSoles(preview.toPayCents)}</dd>
            </div>
          </dl>
          {preview.shortfallCents > 0 && (
            <p role="status" className="mt-2 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900">
              El pedido mínimo es {formatSoles(MINIMUM_ORDER_CENTS)} en productos: faltan {formatSoles(preview.shortfallCents)}.
            </p>
          )}
          {preview.unavailable.length > 0 && (
            <p role="status" className="mt-2 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Hay productos que ya no se venden: quítalos.
            </p>
          )}
        </>
      )}
    </section>
  );
}
