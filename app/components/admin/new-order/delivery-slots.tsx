import { FieldError } from "~/components/ui/form-field";
import { deliveryWindows, type DeliveryWindow } from "@core/delivery-schedule";
import { formatLimaDate } from "@core/lima-dates";
import { OVERRIDE_REASON_MAX, slotValue } from "@core/staff-order-form";
import type { OfferedDate } from "./types";

/** Dates shown before "Más fechas". */
const FIRST_DATES = 4;

/** The soonest window with room: what the form preselects (issue 38). */
export function soonestSlot(dates: OfferedDate[]): string {
  for (const day of dates) for (const window of day.windows) if (window.hasRoom) return slotValue(day.date, window.window);
  return "";
}

export function isFullSlot(dates: OfferedDate[], slot: string): boolean {
  return dates.some((day) => day.windows.some((window) => slotValue(day.date, window.window) === slot && !window.hasRoom));
}

const dateLabel = (date: string) => formatLimaDate(date, { weekday: "short", day: "numeric", month: "short" });

/**
 * The district's dates and windows by the checkout's capacity rules, soonest first. A full window
 * can still be chosen here: then the reason for passing its capacity is required (and audited).
 */
export function DeliverySlots({
  districtName,
  dates,
  slot,
  onSlot,
  reason,
  showReason,
  error,
  reasonError,
}: {
  /** Null while no district is chosen. */
  districtName: string | null;
  dates: OfferedDate[];
  slot: string;
  onSlot: (value: string) => void;
  reason: string;
  /** Whether the reason box shows (the slot chosen is full, or the page runs without JavaScript). */
  showReason: boolean;
  error: string | undefined;
  reasonError: string | undefined;
}) {
  const radio = (day: OfferedDate, window: { window: DeliveryWindow; hasRoom: boolean }) => {
    const value = slotValue(day.date, window.window);
    return (
      <label
        key={value}
        className={`flex items-center gap-2 rounded-xl border px-3 py-2 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 ${window.hasRoom ? "" : "border-dashed text-slate-700"}`}
      >
        <input type="radio" name="horario" value={value} checked={slot === value} onChange={() => onSlot(value)} className="accent-brand-700" />
        <span>
          <span className="first-letter:uppercase">{dateLabel(day.date)}</span> · {deliveryWindows[window.window].label} ({deliveryWindows[window.window].hours}
          ){!window.hasRoom && <strong className="font-semibold text-amber-800"> · Sin cupos</strong>}
        </span>
      </label>
    );
  };
  const later = dates.slice(FIRST_DATES);
  const laterChosen = later.some((day) => day.windows.some((window) => slotValue(day.date, window.window) === slot));
  return (
    <fieldset className="min-w-0" aria-describedby={error ? "horario-error" : undefined}>
      <legend className="mb-2 text-lg font-bold text-slate-900">Entrega</legend>
      {districtName === null ? (
        <p className="text-sm text-slate-700">Elige la dirección (o su distrito) para ver las fechas.</p>
      ) : dates.length === 0 ? (
        <p className="text-sm text-slate-700">No quedan fechas para {districtName} en los próximos días.</p>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600">Fechas de {districtName}, la más próxima primero.</p>
          <div className="grid gap-2 sm:grid-cols-2">{dates.slice(0, FIRST_DATES).flatMap((day) => day.windows.map((window) => radio(day, window)))}</div>
          {later.length > 0 && (
            <details className="mt-2" open={laterChosen}>
              <summary className="cursor-pointer text-sm font-semibold text-brand-800">Más fechas</summary>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">{later.flatMap((day) => day.windows.map((window) => radio(day, window)))}</div>
            </details>
          )}
        </>
      )}
      <FieldError id="horario-error" message={error} />
      {/* Kept in the page when hidden, so what was typed survives a change of slot. */}
      <div className="mt-3" hidden={!showReason}>
        <label htmlFor="motivoSobrecupo" className="mb-1 block text-sm font-semibold">
          Motivo para pasar el cupo (solo si el horario elegido no tiene cupos)
        </label>
        <textarea
          id="motivoSobrecupo"
          name="motivoSobrecupo"
          rows={2}
          maxLength={OVERRIDE_REASON_MAX}
          defaultValue={reason}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? "motivoSobrecupo-error" : undefined}
          className="w-full rounded-xl border border-slate-300 bg-white px-3 py-2 text-base"
        />
        <FieldError id="motivoSobrecupo-error" message={reasonError} />
      </div>
    </fieldset>
  );
}
