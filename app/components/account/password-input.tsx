import { useState } from "react";
import { inputClass } from "~/components/checkout/field";

/** A password field with its own show/hide toggle (spec §2: the toggles are independent). */
export function PasswordInput({
  label,
  name,
  error,
  autoComplete,
  value,
  onChange,
  defaultValue,
}: {
  label: string;
  name: string;
  error?: string;
  autoComplete: string;
  value?: string;
  onChange?: (value: string) => void;
  defaultValue?: string;
}) {
  const [visible, setVisible] = useState(false);
  const id = `password-${name}`;
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type={visible ? "text" : "password"}
          autoComplete={autoComplete}
          className={`${inputClass} pr-20`}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          {...(onChange ? { value, onChange: (event: React.ChangeEvent<HTMLInputElement>) => onChange(event.target.value) } : { defaultValue })}
        />
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          className="absolute inset-y-0 right-2 my-auto h-8 rounded-lg px-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
          aria-label={visible ? `Ocultar ${label.toLowerCase()}` : `Mostrar ${label.toLowerCase()}`}
          aria-pressed={visible}
        >
          {visible ? "Ocultar" : "Mostrar"}
        </button>
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
