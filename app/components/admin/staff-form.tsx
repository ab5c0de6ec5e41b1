import { FieldError, inputClass } from "~/components/ui/form-field";
/** Shared look of the staff area's small forms (cancel, refund, settings): phone-first, full width on a phone. */
export const staffInputClass = `${inputClass} bg-white text-base`;
export const staffPrimaryButtonClass = "w-full rounded-xl bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800 sm:w-auto";
export const staffDangerButtonClass = "w-full rounded-xl bg-red-700 px-4 py-3 font-semibold text-white hover:bg-red-800 sm:w-auto";

export function StaffFormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="mb-4 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
      {message}
    </p>
  );
}

/** Label/value rows (captured, refunded, refundable…) that wrap instead of overflowing at 360 px. */
export function FactList({ facts }: { facts: [string, string][] }) {
  return (
    <dl className="mb-6 grid gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:grid-cols-2">
      {facts.map(([label, value]) => (
        <div key={label} className="flex flex-wrap justify-between gap-x-3 border-b border-slate-100 pb-2 last:border-b-0 sm:block sm:border-b-0">
          <dt className="text-sm text-slate-600">{label}</dt>
          <dd className="font-semibold break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The required reason of a staff action (cancel, refund), shown to the customer in their e-mail. */
export function ReasonField({ label, defaultValue, error }: { label: string; defaultValue: string | undefined; error: string | undefined }) {
  return (
    <div>
      <label htmlFor="reason" className="mb-1 block font-semibold text-slate-800">
        {label}
      </label>
      <textarea
        id="reason"
        name="reason"
        rows={3}
        required
        minLength={3}
        maxLength={500}
        defaultValue={defaultValue ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "reason-error" : undefined}
        className={staffInputClass}
      />
      <FieldError id="reason-error" message={error} />
    </div>
  );
}
