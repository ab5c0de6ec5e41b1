import { Field, inputClass } from "~/components/ui/form-field";
import type { CheckoutFieldBindings } from "./checkout-form-state";
import { CheckoutTextField } from "./text-field";

/** Who is buying: name, e-mail and phone. */
export function CustomerContactFields({
  onEmailBlur,
  registeredEmail,
  ...bindings
}: CheckoutFieldBindings & {
  /** Spec §7: leaving the e-mail field saves the cart for recovery. */
  onEmailBlur: () => void;
  /** An e-mail the server said belongs to an account (spec §5), to tell a guest about it. */
  registeredEmail: string | null;
}) {
  const { form, update, errorFor } = bindings;
  return (
    <>
      <CheckoutTextField bindings={bindings} field="nombre" label="Nombre" autoComplete="given-name" />
      <CheckoutTextField bindings={bindings} field="apellido" label="Apellido" autoComplete="family-name" />
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
          Este correo ya está registrado. Si la cuenta es tuya, podrás agregar este pedido a tu cuenta desde el correo de confirmación.
        </p>
      )}
      <CheckoutTextField bindings={bindings} field="telefono" label="Celular" type="tel" inputMode="tel" autoComplete="tel" placeholder="987 654 321" />
    </>
  );
}
