import { NavLink } from "react-router";
import { formatLimaDate } from "@core/lima-dates";
import { subscriptionStatusLabels } from "@core/staff-subscription-filters";

/** The subscriptions console's own pages (issue 11). */
const PAGES = [
  { to: "/admin/suscripciones", label: "Suscripciones", end: true },
  { to: "/admin/suscripciones/pagos-fallidos", label: "Pagos fallidos", end: false },
  { to: "/admin/suscripciones/pronostico", label: "Pronóstico y cierres", end: false },
];

export function SubscriptionConsoleNav() {
  return (
    <nav aria-label="Consola de suscripciones" className="mb-6 flex flex-wrap gap-2">
      {PAGES.map((page) => (
        <NavLink
          key={page.to}
          to={page.to}
          end={page.end}
          className={({ isActive }) =>
            `rounded-full px-4 py-2 text-sm font-semibold ring-1 ${isActive ? "bg-brand-700 text-white ring-brand-700" : "bg-white text-brand-800 ring-slate-200 hover:bg-brand-50"}`
          }
        >
          {page.label}
        </NavLink>
      ))}
    </nav>
  );
}

const tones: Record<string, string> = {
  active: "bg-emerald-100 text-emerald-900",
  paused: "bg-amber-100 text-amber-900",
  past_due: "bg-red-100 text-red-900",
  cancelled: "bg-slate-200 text-slate-800",
  pending_payment: "bg-sky-100 text-sky-900",
};

export function SubscriptionStatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-block rounded-full px-3 py-1 text-xs font-semibold ${tones[status] ?? "bg-slate-100 text-slate-800"}`}>
      {subscriptionStatusLabels[status] ?? status}
    </span>
  );
}

export const staffDate = (date: string | null) => (date ? formatLimaDate(date, { day: "numeric", month: "short", year: "numeric" }) : "—");
