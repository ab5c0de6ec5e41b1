import { PASSWORD_RULES } from "@core/account-schemas";

/** Spec §2, reset form: the hint list of requirements; ticks each one as it is met when given the value. */
export function PasswordHints({ value }: { value?: string }) {
  return (
    <ul className="space-y-1 text-sm text-slate-600" aria-label="Requisitos de la contraseña">
      {PASSWORD_RULES.map((rule) => {
        const met = value !== undefined && rule.test(value);
        return (
          <li key={rule.hint} className={met ? "text-emerald-700" : undefined}>
            <span aria-hidden="true">{met ? "✓" : "•"}</span> {rule.hint}
            {value !== undefined && <span className="sr-only">{met ? " (cumplido)" : " (pendiente)"}</span>}
          </li>
        );
      })}
    </ul>
  );
}
