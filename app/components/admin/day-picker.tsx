import { Form, Link } from "react-router";
import { addDays, formatLimaDate } from "@core/lima-dates";

/** A staff page's "Fecha / Ver día" form: a plain GET of `?fecha=`, so it works without JavaScript. */
export function DayPickerForm({ path, date, max }: { path: string; date: string; max?: string }) {
  return (
    <Form method="get" action={path} className="flex flex-wrap items-end gap-2">
      <label className="text-sm font-semibold text-slate-700">
        Fecha
        <input type="date" name="fecha" defaultValue={date} max={max} className="mt-1 block rounded-lg border border-slate-300 px-3 py-2" />
      </label>
      <button type="submit" className="rounded-lg bg-slate-800 px-4 py-2 font-semibold text-white">
        Ver día
      </button>
    </Form>
  );
}

/** The day shown, with links to the day before and after (`untilToday`: no day after today). */
export function DayNav({ path, date, today, testId, untilToday = false }: { path: string; date: string; today: string; testId: string; untilToday?: boolean }) {
  return (
    <nav aria-label="Días" className="mb-4 flex flex-wrap items-center gap-3 text-sm font-semibold">
      <Link to={`${path}?fecha=${addDays(date, -1)}`} className="text-brand-800 underline">
        ← Día anterior
      </Link>
      <span className="text-slate-900 first-letter:uppercase" data-testid={testId}>
        {formatLimaDate(date, { weekday: "long", day: "numeric", month: "long", year: "numeric" })}
        {date === today ? " (hoy)" : ""}
      </span>
      {(!untilToday || date < today) && (
        <Link to={`${path}?fecha=${addDays(date, 1)}`} className="text-brand-800 underline">
          Día siguiente →
        </Link>
      )}
    </nav>
  );
}
