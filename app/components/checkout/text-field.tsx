import type { InputHTMLAttributes } from "react";
import { Field, inputClass } from "~/components/ui/form-field";
import type { CheckoutFieldBindings } from "./checkout-form-state";

/** The form's free-text fields (the e-mail and district have behaviour of their own). */
export type CheckoutTextFieldName = "nombre" | "apellido" | "telefono" | "dni" | "ruc" | "razonSocial" | "direccion" | "referencia" | "pagaCon";

/** A labelled text input bound to one field of the checkout form; `validated` fields show their error once visited. */
export function CheckoutTextField({
  bindings: { form, update, touch, errorFor },
  field,
  label,
  validated = true,
  ...input
}: {
  bindings: CheckoutFieldBindings;
  field: CheckoutTextFieldName;
  label: string;
  validated?: boolean;
} & Pick<InputHTMLAttributes<HTMLInputElement>, "type" | "inputMode" | "autoComplete" | "placeholder">) {
  return (
    <Field label={label} error={validated ? errorFor(field) : undefined}>
      {(props) => (
        <input
          {...props}
          {...input}
          className={inputClass}
          value={form[field]}
          onChange={(e) => update(field, e.target.value)}
          onBlur={validated ? touch(field) : undefined}
        />
      )}
    </Field>
  );
}
