import { useId } from "react";

/**
 * The shop's one form-field kit (issue 28): every form — storefront, account, complaints book,
 * staff screens and the driver app — labels its controls and ties their errors to them the same
 * way, so screen readers announce the error with the field.
 */
export const inputClass = "w-full rounded-xl border border-slate-300 px-3 py-2.5 disabled:bg-slate-100 aria-[invalid=true]:border-red-600";

/** A field's error, named by the control's `aria-describedby`; nothing when there is none. */
export function FieldError({ id, message, className = "mt-1 text-sm text-red-700" }: { id: string; message: string | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p id={id} className={className}>
      {message}
    </p>
  );
}

/** The props a control needs to be named by its label and described by its error. */
export function describedBy(errorId: string, error: string | undefined) {
  return { "aria-invalid": error ? true : undefined, "aria-describedby": error ? errorId : undefined } as const;
}

/**
 * A labelled form control with its error message tied to it. `id` when a link or a test names the
 * control (the complaints book's error summary); a generated one otherwise.
 */
export function Field({
  label,
  error,
  id: givenId,
  children,
}: {
  label: string;
  error?: string;
  id?: string;
  children: (props: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => React.ReactNode;
}) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": error ? errorId : undefined })}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
