import { documentTypeLabels, type DocumentType } from "@core/documents";
import { Field, inputClass } from "./field";
import type { CheckoutFieldBindings } from "./checkout-form-state";

/** The identity document, and the RUC and razón social when the customer wants a factura. */
export function DocumentFields({ form, update, touch, errorFor }: CheckoutFieldBindings) {
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
      <Field label="Número de documento" error={errorFor("dni")}>
        {(props) => <input {...props} className={inputClass} value={form.dni} onChange={(e) => update("dni", e.target.value)} onBlur={touch("dni")} />}
      </Field>
      <label className="flex items-center gap-2 sm:col-span-2">
        <input type="checkbox" checked={form.wantsInvoice} onChange={(e) => update("wantsInvoice", e.target.checked)} className="accent-brand-700" />
        Necesito factura (RUC)
      </label>
      {form.wantsInvoice && (
        <>
          <Field label="RUC" error={errorFor("ruc")}>
            {(props) => (
              <input
                {...props}
                inputMode="numeric"
                className={inputClass}
                value={form.ruc}
                onChange={(e) => update("ruc", e.target.value)}
                onBlur={touch("ruc")}
              />
            )}
          </Field>
          <Field label="Razón social" error={errorFor("razonSocial")}>
            {(props) => (
              <input
                {...props}
                className={inputClass}
                value={form.razonSocial}
                onChange={(e) => update("razonSocial", e.target.value)}
                onBlur={touch("razonSocial")}
              />
            )}
          </Field>
        </>
      )}
    </>
  );
}
