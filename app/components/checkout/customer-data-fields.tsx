import { Field, inputClass } from "./field";
import type { CheckoutFieldBindings } from "./checkout-form-state";

/** Who is buying: name, e-mail and phone. */
export function CustomerContactFields({
  form,
  update,
  touch,
  errorFor,
  onEmailBlur,
  registeredEmail,
}: CheckoutFieldBindings & {
  /** Spec §7: leaving the e-mail field saves the cart for recovery. */
  onEmailBlur: () => void;
  /** An e-mail the server said belongs to an account (spec §5), to tell a guest about it. */
  registeredEmail: string | null;
}) {
  return (
    <>
      <Field label="Nombre" error={errorFor("nombre")}>
        {(props) => (
          <input
            {...props}
            className={inputClass}
            autoComplete="given-name"
            value={form.nombre}
            onChange={(e) => update("nombre", e.target.value)}
            onBlur={touch("nombre")}
          />
        )}
      </Field>
      <Field label="Apellido" error={errorFor("apellido")}>
        {(props) => (
          <input
            {...props}
            className={inputClass}
            autoComplete="family-name"
            value={form.apellido}
            onChange={(e) => update("apellido", e.target.value)}
            onBlur={touch("apellido")}
          />
        )}
      </Field>
      <Field label="Correo electrónico" error={errorFor("correo")}>
        {(props) => (
          <input
            {...props}
            type="email"
            className={inputClass}
            autoComplete="email"
            value={form.correo}
            onChange={(e) => update("correo", e.target.value)}
            onBlur={onEmailBlur}
          />
        )}
      </Field>
      {registeredEmail && registeredEmail === form.correo.trim() && (
        <p role="status" className="rounded-xl border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-brand-900 sm:col-span-2">
          Este correo ya está registrado. Tu pedido se asignará automáticamente a tu cuenta existente.
        </p>
      )}
      <Field label="Celular" error={errorFor("telefono")}>
        {(props) => (
          <input
            {...props}
            type="tel"
            inputMode="tel"
            className={inputClass}
            autoComplete="tel"
            placeholder="987 654 321"
            value={form.telefono}
            onChange={(e) => update("telefono", e.target.value)}
            onBlur={touch("telefono")}
          />
        )}
      </Field>
    </>
  );
}
