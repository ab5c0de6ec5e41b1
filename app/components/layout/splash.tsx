/**
 * Loading splash (spec §2): pulsing round logo, brand heading, a bar that fills in 0.8 s and
 * 'Cargando experiencia...'. Timed entirely by CSS (app.css), so it never depends on JavaScript,
 * is skipped under prefers-reduced-motion, and is hidden from assistive technology.
 */
export function Splash({ brandName }: { brandName: string }) {
  return (
    <div
      aria-hidden="true"
      data-testid="splash"
      className="splash fixed inset-0 z-50 flex flex-col items-center justify-center gap-5 bg-white"
    >
      <img src="/logo.svg" alt="" width={96} height={96} className="h-24 w-24 animate-pulse rounded-full" />
      <p className="text-2xl font-bold text-brand-800">{brandName}</p>
      <div className="h-1.5 w-48 overflow-hidden rounded-full bg-brand-100">
        <div className="splash-progress h-full w-full bg-brand-600" />
      </div>
      <p className="text-sm text-slate-600">Cargando experiencia...</p>
    </div>
  );
}
