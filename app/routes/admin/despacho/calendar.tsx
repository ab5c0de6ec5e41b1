import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/calendar";
import {
  addClosedDay,
  loadCalendarForStaff,
  removeClosedDay,
  restoreNationalHoliday,
  setCutoffTime,
  setDefaultCapacities,
  type CalendarChangeResult,
} from "@server/deliveries/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { CAPACITY_CELLS, CapacityGrid, wholeNumber } from "~/components/admin/capacity-grid";
import { isPlainLine } from "@core/input-schemas";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { allowStaffPage, staffActor } from "~/server/staff.server";

/**
 * Issue 10: the delivery calendar staff keep — closed days and holidays, the shop-wide places per
 * window, the shop's cut-off. What belongs to one district (its own places and cut-off) is edited at
 * /admin/distritos, so each thing has one place.
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/calendario")];

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const today = limaToday(new Date());
  return { calendar: await loadCalendarForStaff(db, today) };
}

export const meta: Route.MetaFunction = () => [{ title: "Calendario de reparto · Back office" }, { name: "robots", content: "noindex,nofollow" }];

type ActionData = { intent: string; ok: boolean; message: string; field?: string; values?: Record<string, string> };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const db = context.get(dbContext);
  const actor = staffActor(context, request);
  const intent = text(form, "intent");
  const values = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== "intent"));
  if (Object.values(values).some((value) => value.length > 200 || !isPlainLine(value))) {
    return data<ActionData>({ intent, ok: false, message: "El formulario contiene caracteres no permitidos.", values }, { status: 400 });
  }
  let result: CalendarChangeResult;
  let done: string;
  switch (intent) {
    case "cutoff":
      result = await setCutoffTime(db, actor, text(form, "cutoffTime"), new Date());
      done = "Hora de corte guardada.";
      break;
    case "capacity-defaults":
      result = await setDefaultCapacities(
        db,
        actor,
        CAPACITY_CELLS.map(({ dayNumber, window, name }) => ({ dayNumber, window, capacity: wholeNumber(text(form, name)) })),
      );
      done = "Cupos por día guardados.";
      break;
    case "closed-add":
      result = await addClosedDay(db, actor, { date: text(form, "date"), kind: text(form, "kind"), name: text(form, "name") });
      done = "Día cerrado agregado: ya no se ofrece.";
      break;
    case "closed-remove":
      result = await removeClosedDay(db, actor, text(form, "date"));
      done = "Día abierto de nuevo.";
      break;
    case "holiday-restore":
      result = await restoreNationalHoliday(db, actor, text(form, "date"));
      done = "Feriado cerrado de nuevo: ya no se ofrece.";
      break;
    default:
      return data<ActionData>({ intent, ok: false, message: "Acción no válida. Recarga la página e inténtalo de nuevo." }, { status: 400 });
  }
  if (!result.ok) return data<ActionData>({ intent, ok: false, message: result.message, field: result.field, values }, { status: 400 });
  return data<ActionData>({ intent, ok: true, message: done });
}

const input = "rounded-xl border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";
const button = "rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400";
const removeButton = "rounded-lg px-2 py-1 text-sm font-semibold text-red-700 hover:bg-red-50";

export default function AdminCalendar({ loaderData, actionData }: Route.ComponentProps) {
  const { calendar } = loaderData;
  const busy = useNavigation().state === "submitting";
  const answer = (intent: string) => (actionData?.intent === intent ? actionData : undefined);
  const typed = (intent: string, name: string, fallback: string) => answer(intent)?.values?.[name] ?? fallback;
  const invalid = (intent: string, field: string) => (answer(intent)?.ok === false && answer(intent)?.field === field ? true : undefined);

  return (
    <>
      <AdminPageHeader title="Calendario de reparto" />
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="corte" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100">
          <h2 id="corte" className="text-lg font-bold text-slate-900">
            Hora de corte
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Desde esta hora (Lima), mañana ya no se ofrece en la tienda. Un distrito puede tener la suya en Distritos.
          </p>
          <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="cutoff" />
            <label className="grid gap-1 text-sm font-semibold">
              Hora de corte
              <input
                name="cutoffTime"
                type="time"
                required
                className={input}
                defaultValue={typed("cutoff", "cutoffTime", calendar.cutoffTime)}
                aria-invalid={invalid("cutoff", "cutoffTime")}
              />
            </label>
            <button type="submit" className={button} disabled={busy}>
              Guardar hora
            </button>
          </Form>
          <Outcome data={answer("cutoff")} />
        </section>

        <section aria-labelledby="cerrados" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100">
          <h2 id="cerrados" className="text-lg font-bold text-slate-900">
            Feriados y días cerrados
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Nunca se ofrecen para entregas. Los feriados nacionales de cada año se calculan solos (Semana Santa incluida); agrega aquí un feriado nuevo por ley
            o un cierre de la tienda.
          </p>
          <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2">
            <input type="hidden" name="intent" value="closed-add" />
            <label className="grid gap-1 text-sm font-semibold">
              Fecha
              <input
                name="date"
                type="date"
                required
                className={input}
                defaultValue={typed("closed-add", "date", "")}
                aria-invalid={invalid("closed-add", "date")}
              />
            </label>
            <label className="grid gap-1 text-sm font-semibold">
              Tipo
              <select name="kind" className={input} defaultValue={typed("closed-add", "kind", "cierre")}>
                <option value="cierre">Cierre de la tienda</option>
                <option value="feriado">Feriado nacional</option>
              </select>
            </label>
            <label className="grid gap-1 text-sm font-semibold sm:col-span-2">
              Motivo
              <input
                name="name"
                required
                maxLength={80}
                className={input}
                defaultValue={typed("closed-add", "name", "")}
                aria-invalid={invalid("closed-add", "name")}
              />
            </label>
            <div className="sm:col-span-2">
              <button type="submit" className={button} disabled={busy}>
                Cerrar ese día
              </button>
            </div>
          </Form>
          <Outcome data={answer("closed-add") ?? answer("closed-remove") ?? answer("holiday-restore")} />
          <p className="mt-4 text-sm text-slate-600">Hasta el {formatLimaDate(calendar.until, { day: "numeric", month: "long", year: "numeric" })}:</p>
          <ul className="mt-1 divide-y divide-slate-100">
            {calendar.closedDays.length === 0 && <li className="py-2 text-sm text-slate-600">No hay días cerrados próximos.</li>}
            {calendar.closedDays.map((day) => (
              <CalendarDay
                key={day.date}
                day={day}
                note={day.national ? "feriado nacional" : day.kind === "feriado" ? "feriado agregado" : "cierre"}
                intent="closed-remove"
                action="Quitar"
                actionLabel={`Abrir el ${day.date} (${day.name})`}
                busy={busy}
              />
            ))}
          </ul>
          {calendar.openHolidays.length > 0 && (
            <>
              <h3 className="mt-4 text-sm font-bold text-slate-900">Feriados en que sí se reparte</h3>
              <ul className="mt-1 divide-y divide-slate-100">
                {calendar.openHolidays.map((day) => (
                  <CalendarDay
                    key={day.date}
                    day={day}
                    intent="holiday-restore"
                    action="Cerrar de nuevo"
                    actionLabel={`Cerrar de nuevo el ${day.date} (${day.name})`}
                    busy={busy}
                  />
                ))}
              </ul>
            </>
          )}
        </section>

        <section aria-labelledby="cupos" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100">
          <h2 id="cupos" className="text-lg font-bold text-slate-900">
            Cupos por día y horario
          </h2>
          <p className="mt-1 text-sm text-slate-600">Entregas que caben en cada horario, entre todos los distritos sin cupo propio.</p>
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="capacity-defaults" />
            <CapacityGrid
              cellClassName="py-1 pr-2"
              renderCell={({ dayNumber, window, name }, inputProps) => {
                const current = calendar.defaults.find((row) => row.dayNumber === dayNumber && row.window === window)?.capacity;
                return (
                  <input
                    {...inputProps}
                    required
                    className={`${input} w-20`}
                    defaultValue={typed("capacity-defaults", name, current === null || current === undefined ? "" : String(current))}
                    aria-invalid={invalid("capacity-defaults", name)}
                  />
                );
              }}
            />
            <button type="submit" className={`${button} mt-3`} disabled={busy}>
              Guardar cupos
            </button>
          </Form>
          <Outcome data={answer("capacity-defaults")} />
        </section>

        <section aria-labelledby="distritos" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100">
          <h2 id="distritos" className="text-lg font-bold text-slate-900">
            Por distrito
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Los días de reparto, los cupos propios y la hora de corte de cada distrito se editan en{" "}
            <Link to="/admin/distritos" className="font-semibold text-brand-700 underline">
              Distritos
            </Link>
            .
          </p>
        </section>
      </div>
    </>
  );
}

/** One date of the calendar's lists, with the button that changes it. */
function CalendarDay(props: { day: { date: string; name: string }; note?: string; intent: string; action: string; actionLabel: string; busy: boolean }) {
  const { day, note, intent, action, actionLabel, busy } = props;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
      <span>
        <span className="font-semibold first-letter:uppercase">
          {formatLimaDate(day.date, { weekday: "short", day: "numeric", month: "short", year: "numeric" })}
        </span>{" "}
        · {day.name}
        {note && <span className="text-slate-600"> ({note})</span>}
      </span>
      <Form method="post">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="date" value={day.date} />
        <button type="submit" className={removeButton} disabled={busy} aria-label={actionLabel}>
          {action}
        </button>
      </Form>
    </li>
  );
}

function Outcome({ data: outcome }: { data: ActionData | undefined }) {
  if (!outcome) return null;
  return outcome.ok ? (
    <p role="status" className="mt-3 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900">
      {outcome.message}
    </p>
  ) : (
    <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-800">
      {outcome.message}
    </p>
  );
}
