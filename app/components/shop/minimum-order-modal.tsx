import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { formatSoles } from "@core/money";
import { minimumOrderShortfall, minimumOrderText } from "@core/pricing";

/**
 * Spec §5 'Pedido Mínimo Requerido'. A native <dialog> opened as a modal: focus moves into it,
 * Escape closes it and the page behind cannot be reached meanwhile.
 */
export function MinimumOrderModal({
  open,
  onClose,
  subtotalCents,
  orderKind,
}: {
  open: boolean;
  onClose: () => void;
  subtotalCents: number;
  /** At checkout the spec names the order: 'de suscripción' or 'único'. */
  orderKind?: "suscripción" | "único";
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  const minimumText = minimumOrderText(orderKind);

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="minimum-order-title"
      className="m-auto w-[min(92vw,28rem)] rounded-3xl p-0 shadow-2xl backdrop:bg-slate-900/50"
    >
      <div className="p-6">
        <h2 id="minimum-order-title" className="text-xl font-bold text-brand-900">
          Pedido Mínimo Requerido
        </h2>
        <p className="mt-3 text-slate-700">{minimumText}</p>
        <dl className="mt-4 space-y-1 rounded-2xl bg-brand-50 p-4">
          <div className="flex justify-between">
            <dt>Monto actual del carrito</dt>
            <dd className="font-semibold">{formatSoles(subtotalCents)}</dd>
          </div>
          <div className="flex justify-between text-brand-900">
            <dt className="font-semibold">Te faltan: {formatSoles(minimumOrderShortfall(subtotalCents))}</dt>
          </div>
        </dl>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button type="button" onClick={onClose} className="rounded-full border border-slate-300 px-5 py-2.5 font-semibold text-slate-700 hover:bg-slate-50">
            Cerrar
          </button>
          <Link to="/tienda" onClick={onClose} className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800">
            Seguir Comprando
          </Link>
        </div>
      </div>
    </dialog>
  );
}
