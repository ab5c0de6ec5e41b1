/** Quantity never below 1 (spec §4). */
export function QuantityStepper({ value, onChange, label = "Cantidad" }: { value: number; onChange: (next: number) => void; label?: string }) {
  return (
    <div className="inline-flex items-center rounded-full border border-slate-300" role="group" aria-label={label}>
      <button
        type="button"
        className="h-11 w-11 rounded-l-full text-xl font-bold text-brand-800 hover:bg-brand-50 disabled:text-slate-400"
        onClick={() => onChange(Math.max(1, value - 1))}
        disabled={value <= 1}
        aria-label="Disminuir cantidad"
      >
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        value={value}
        aria-label={label}
        onChange={(event) => {
          const next = Number.parseInt(event.target.value, 10);
          onChange(Number.isFinite(next) && next >= 1 ? next : 1);
        }}
        className="h-11 w-14 [appearance:textfield] border-x border-slate-300 text-center font-semibold [&::-webkit-inner-spin-button]:appearance-none"
      />
      <button
        type="button"
        className="h-11 w-11 rounded-r-full text-xl font-bold text-brand-800 hover:bg-brand-50"
        onClick={() => onChange(value + 1)}
        aria-label="Aumentar cantidad"
      >
        +
      </button>
    </div>
  );
}
