import { Form, useNavigation } from "react-router";
import { Field, inputClass } from "~/components/ui/form-field";
import { formatSoles } from "@core/money";

/** Mirrors SANDBOX_TEST_CARDS on the server (server/payments/cards/sandbox-cards.ts). */
const TEST_CARDS = [
  ["4111 1111 1111 1111", "Visa: aprobada"],
  ["5111 1111 1111 1118", "Mastercard: aprobada"],
  ["4000 0400 0000 0008", "Rechazada: fondos insuficientes"],
  ["4000 0200 0000 0000", "Rechazada: tarjeta robada"],
  ["4000 0000 0000 0341", "Se guarda, pero las renovaciones se rechazan"],
] as const;

/**
 * The offline sandbox's card form (decisions.md: a provider that works without internet). Test
 * cards only: the page says so, and nothing here is a real payment.
 */
export function SandboxCardForm({
  amountCents,
  fieldErrors,
  submitLabel,
  hiddenFields = {},
}: {
  amountCents: number;
  fieldErrors: Record<string, string>;
  submitLabel?: string;
  hiddenFields?: Record<string, string>;
}) {
  const busy = useNavigation().state !== "idle";
  return (
    <>
      <p className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        Modo de prueba: usa una tarjeta de prueba, nunca una tarjeta real.
      </p>
      <Form method="post" className="mt-6 space-y-4" noValidate>
        {Object.entries(hiddenFields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Field label="Número de tarjeta" error={fieldErrors.cardNumber}>
          {(props) => (
            <input {...props} name="cardNumber" inputMode="numeric" autoComplete="cc-number" placeholder="4111 1111 1111 1111" className={inputClass} />
          )}
        </Field>
        <div className="grid grid-cols-2 gap-4">
          <Field label="Vencimiento (MM/AA)" error={fieldErrors.expiry}>
            {(props) => <input {...props} name="expiry" inputMode="numeric" autoComplete="cc-exp" placeholder="12/30" className={inputClass} />}
          </Field>
          <Field label="CVV" error={fieldErrors.cvv}>
            {(props) => <input {...props} name="cvv" inputMode="numeric" autoComplete="cc-csc" placeholder="123" className={inputClass} />}
          </Field>
        </div>
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400"
        >
          {busy ? "Procesando…" : (submitLabel ?? `Guardar tarjeta y pagar ${formatSoles(amountCents)}`)}
        </button>
      </Form>
      <details className="mt-6 text-sm">
        <summary className="cursor-pointer font-semibold text-brand-800">Tarjetas de prueba</summary>
        <ul className="mt-2 space-y-1">
          {TEST_CARDS.map(([number, result]) => (
            <li key={number}>
              <span className="font-mono">{number}</span> — {result}
            </li>
          ))}
        </ul>
        <p className="mt-2 text-slate-600">Cualquier vencimiento futuro y cualquier CVV de 3 dígitos.</p>
      </details>
    </>
  );
}
