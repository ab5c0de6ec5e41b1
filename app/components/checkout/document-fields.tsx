import { documentTypeLabels, type DocumentType } from "@core/documents";
import { Field, inputClass } from "~/components/ui/form-field";
import type { CheckoutFieldBindings } from "./checkout-form-state";
import { CheckoutTextField } from "./text-field";

/** The identity document, and the RUC and razón social when the customer wants a factura. */
export function DocumentFields(bindings: CheckoutFieldBindings) {
  const { form, update, errorFor } = bindings;
  return (
    <>
      <Field label="Tipo de documento" error={errorFor("tipo_documento")}>
        {(props) => (
          <select {...props} className={inputClass} value={form.tipo_documento} onChange={(e) => update("tipo_documento", e.target.value as DocumentType)}>
            {Object.entries(documentTypeLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <CheckoutTextField bindings={bindings} field="dni" label="Número de documento" />
      <label className="flex items-center gap-2 sm:col-span-2">
        <input type="checkbox" checked={form.wantsInvoice} onChange={(e) => update("wantsInvoice", e.target.checked)} className="accent-brand-700" />
        Necesito factura (RUC)
      </label>
      {form.wantsInvoice && (
        <>
          <CheckoutTextField bindings={bindings} field="ruc" label="RUC" inputMode="numeric" />
          <CheckoutTextField bindings={bindings} field="razonSocial" label="Razón social" />
        </>
      )}
    </>
  );
}
