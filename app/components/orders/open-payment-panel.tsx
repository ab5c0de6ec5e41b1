import { useState } from "react";
import { Link } from "react-router";
import { formatLimaInstant } from "@core/lima-dates";
import { useHydrated } from "~/lib/use-hydrated";

export interface OpenPayment {
  code: string | null;
  expiresAt: string | null;
  payPath: string;
}

/** "martes, 3 de diciembre, 18:30", in Lima's time whatever the phone's clock says. */
const deadlineText = (expiresAt: string) =>
  formatLimaInstant(expiresAt, { weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/**
 * What an unpaid order still needs (issue 41): its cash code with a copy button, the deadline in
 * Lima's time, how to pay it, and the order's payment page ("Pagar") for another way. Without a code
 * yet, only the payment page. An expired attempt says so instead of offering a dead code.
 */
export function OpenPaymentPanel({ payment, expired }: { payment: OpenPayment; expired: boolean }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  if (expired) {
    return (
      <section className="mt-6 rounded-2xl bg-red-50 p-5 text-red-900" data-testid="open-payment" aria-labelledby="open-payment-title">
        <h2 id="open-payment-title" className="font-bold">
          El plazo para pagar venció
        </h2>
        <p className="mt-1 text-sm">
          Venció el {payment.expiresAt ? deadlineText(payment.expiresAt) : ""} (hora de Lima). Vuelve a la tienda para hacer un pedido nuevo.
        </p>
      </section>
    );
  }
  async function copy(code: string) {
    // A browser that refuses the clipboard (no permission, old Android) is told to copy by hand.
    const done = await navigator.clipboard?.writeText(code).then(
      () => true,
      () => false,
    );
    setCopied(done ? "yes" : "no");
  }
  return (
    <section className="mt-6 rounded-2xl bg-amber-50 p-5 text-amber-950 ring-1 ring-amber-200" data-testid="open-payment" aria-labelledby="open-payment-title">
      <h2 id="open-payment-title" className="font-bold">
        {payment.code ? "Falta pagar tu pedido con este código" : "Falta pagar tu pedido"}
      </h2>
      {payment.code && (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <p className="font-mono text-2xl tracking-widest break-all" data-testid="open-payment-code">
            {payment.code}
          </p>
          {hydrated && (
            <button
              type="button"
              onClick={() => void copy(payment.code!)}
              className="rounded-full border border-amber-800 px-4 py-2 text-sm font-semibold text-amber-950 hover:bg-amber-100"
            >
              Copiar código
            </button>
          )}
          <span role="status" className="text-sm">
            {copied === "yes" ? "Código copiado." : copied === "no" ? "No se pudo copiar: cópialo a mano." : ""}
          </span>
        </div>
      )}
      {payment.expiresAt && (
        <p className="mt-2 text-sm" data-testid="open-payment-deadline">
          Págalo antes del <strong>{deadlineText(payment.expiresAt)}</strong> (hora de Lima).
        </p>
      )}
      <p className="mt-2 text-sm">
        {payment.code
          ? "Págalo con Yape, tu banca móvil o en un agente (PagoEfectivo) con este código. Confirmaremos tu pedido apenas recibamos el pago."
          : "Elige cómo pagar en la página de pago: tarjeta, o un código para Yape, tu banca móvil o un agente."}
      </p>
      <Link
        to={payment.payPath}
        className="mt-4 inline-flex rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        data-testid="open-payment-pay"
      >
        Pagar
      </Link>
    </section>
  );
}
