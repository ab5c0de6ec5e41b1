import { staffInputClass } from "./staff-form";
import { FieldError } from "~/components/ui/form-field";

/** A labelled input of the /admin/contenido forms, with its help and its Spanish error tied to it for screen readers. */
export function ContentField({
  name,
  label,
  defaultValue,
  error,
  help,
  type = "text",
  rows,
  idPrefix = "",
  required = false,
  inputMode,
}: {
  name: string;
  label: string;
  defaultValue: string | null | undefined;
  error?: string;
  help?: string;
  type?: "text" | "email" | "url";
  rows?: number;
  idPrefix?: string;
  required?: boolean;
  inputMode?: "numeric" | "tel" | "decimal";
}) {
  const id = `${idPrefix}${name}`;
  const describedBy = [help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    required,
    defaultValue: defaultValue ?? "",
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    className: rows ? `${staffInputClass} font-mono text-sm` : staffInputClass,
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-semibold text-slate-800">
        {label}
      </label>
      {rows ? <textarea rows={rows} {...common} /> : <input type={type} inputMode={inputMode} autoComplete="off" {...common} />}
      {help && (
        <p id={`${id}-help`} className="mt-1 text-sm text-slate-600">
          {help}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

type FieldProps = Parameters<typeof ContentField>[0];

/** One field of an entry form, described as data: its value and error come from the form's state by name. */
export type FieldSpec = Omit<FieldProps, "idPrefix" | "defaultValue" | "error">;
export type EntryValues = Record<string, string | null | undefined>;
export type EntryErrors = Record<string, string> | undefined;

/** The fields of a staff entry form (products, variants, organisations, history slides), in the order given. */
export function ContentFields({
  fields,
  values,
  errors,
  idPrefix,
}: {
  fields: readonly FieldSpec[];
  values: EntryValues;
  errors: EntryErrors;
  idPrefix: string;
}) {
  return (
    <>
      {fields.map((field) => (
        <ContentField key={field.name} idPrefix={idPrefix} {...field} defaultValue={values[field.name]} error={errors?.[field.name]} />
      ))}
    </>
  );
}

/** The "active" checkbox of an entry form: sends `active=si` when ticked. */
export function ActiveBox({ idPrefix, checked, label }: { idPrefix: string; checked: boolean; label: string }) {
  return (
    <div className="flex items-center gap-2">
      <input id={`${idPrefix}active`} type="checkbox" name="active" value="si" defaultChecked={checked} className="h-5 w-5 shrink-0" />
      <label htmlFor={`${idPrefix}active`} className="font-semibold text-slate-800">
        {label}
      </label>
    </div>
  );
}

export function SavedNotice({ show, children }: { show: boolean; children: React.ReactNode }) {
  if (!show) return null;
  return (
    <p role="status" className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900">
      {children}
    </p>
  );
}

export const contentCardClass = "space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100";
