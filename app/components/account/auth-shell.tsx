import { Link } from "react-router";
import { LogoMark } from "~/components/ui/logo-mark";

/** The frame of the pages outside any layout (spec §2): login, registration and recovery. */
export function AuthShell({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: React.ReactNode; footer?: React.ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-white px-4 py-10">
      <Link to="/" className="mb-6 flex items-center gap-2 font-bold text-brand-900">
        <LogoMark />
        <span className="text-xl">Vida Alcalina</span>
      </Link>
      <section className="w-full max-w-md rounded-3xl bg-white p-6 shadow-lg ring-1 ring-slate-100 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        {subtitle && <p className="mt-1 text-slate-600">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </section>
      {footer && <div className="mt-6 text-center text-sm text-slate-600">{footer}</div>}
    </main>
  );
}

export function FormAlert({ tone = "error", children }: { tone?: "error" | "success" | "info"; children: React.ReactNode }) {
  const tones = {
    error: "border-red-200 bg-red-50 text-red-800",
    success: "border-emerald-200 bg-emerald-50 text-emerald-800",
    info: "border-brand-200 bg-brand-50 text-brand-900",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-xl border px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}

export const primaryButtonClass =
  "inline-flex w-full items-center justify-center rounded-full bg-brand-700 px-6 py-3 font-semibold text-white shadow transition hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60";
