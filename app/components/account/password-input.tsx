import { useState } from "react";
import { Field, inputClass } from "~/components/ui/form-field";

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
  return (
    <Field id={`password-${name}`} label={label} error={error}>
      {(props) => (
        <div className="relative">
          <input
            {...props}
            name={name}
            type={visible ? "text" : "password"}
            autoComplete={autoComplete}
            className={`${inputClass} pr-20`}
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
      )}
    </Field>
  );
}
