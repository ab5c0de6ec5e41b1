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

export function SavedNotice({ show, children }: { show: boolean; children: React.ReactNode }) {
  if (!show) return null;
  return (
    <p role="status" className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900">
      {children}
    </p>
  );
}

export const contentCardClass = "space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100";
