import { deliveryWindows, type DeliveryWindow } from "@core/delivery-schedule";
import { districtMatchMessage, type DistrictMatch } from "@core/district-match";
import { formatLimaDate, weekdayNames } from "@core/lima-dates";
import { Field, inputClass } from "~/components/ui/form-field";
import type { CheckoutFieldBindings } from "./checkout-form-state";
import { CheckoutTextField } from "./text-field";
import { LocationPicker, type MapTiles } from "~/components/map/location-picker";

export interface District {
  id: number;
  name: string;
  dayNumbers: number[];
  center: { lat: number; lng: number } | null;
}

/** Where and when: district, address, weekday, one of the offered dates and a time window. */
export function DeliveryFieldset({
  districts,
  district,
  districtMatch,
  soonest,
  onChooseDate,
  missedDates,
  dates,
  windowsOfDate,
  tiles,
  ...bindings
}: CheckoutFieldBindings & {
  tiles: MapTiles;
  districts: District[];
  /** The served district the typed name matches, if any. */
  district: District | undefined;
  /** How the typed name matched (core/district-match.ts): said under the box unless typed in full. */
  districtMatch: DistrictMatch<District>;
  /** Issue 41: the district's first offered dates, any weekday, chosen with one tap. */
  soonest: string[];
  onChooseDate: (date: string) => void;
  /** The chosen weekday's dates not offered before the last one shown, with why. */
  missedDates: { date: string; reason: string }[];
  /** The dates the server offers for the chosen weekday (spec §5: the next two). */
  dates: string[];
  /** The windows of the chosen date, with whether each still has room (issue 10). */
  windowsOfDate: { window: DeliveryWindow; hasRoom: boolean }[] | undefined;
}) {
  const { form, update, touch, errorFor } = bindings;
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2">
      <legend className="mb-3 text-xl font-bold text-brand-900">Datos de envío</legend>
      <p className="text-sm text-slate-600 sm:col-span-2">Región: Lima</p>
      <Field
        label="Distrito"
        error={
          // A name that matches no district, or several, says so once the customer leaves the box.
          districtMatch.kind === "none" || districtMatch.kind === "ambiguous"
            ? errorFor("districtId") && (districtMatchMessage(districtMatch, form.districtName) ?? undefined)
            : errorFor("districtId")
        }
      >
        {(props) => (
          <>
            <input
              {...props}
              aria-describedby={
                [props["aria-describedby"], districtMatch.kind === "understood" ? `${props.id}-understood` : null].filter(Boolean).join(" ") || undefined
              }
              list="served-districts"
              className={inputClass}
              placeholder="Busca tu distrito"
              autoComplete="off"
              value={form.districtName}
              onChange={(e) => update("districtName", e.target.value)}
              onBlur={touch("districtId")}
            />
            <datalist id="served-districts">
              {districts.map((option) => (
                <option key={option.id} value={option.name} />
              ))}
            </datalist>
            {districtMatch.kind === "understood" && (
              <p id={`${props.id}-understood`} role="status" className="mt-1 text-sm text-green-800" data-testid="district-understood">
                {districtMatchMessage(districtMatch, form.districtName)}
              </p>
            )}
          </>
        )}
      </Field>
      <CheckoutTextField bindings={bindings} field="direccion" label="Dirección" autoComplete="street-address" />
      <CheckoutTextField bindings={bindings} field="referencia" label="Referencia (opcional)" validated={false} />
      <LocationPicker
        value={form.ubicacion}
        onChange={(point) => update("ubicacion", point)}
        tiles={tiles}
        openAt={district?.center}
        addressText={[form.direccion, district?.name].filter(Boolean).join(", ")}
        error={errorFor("ubicacion")}
      />
      {district && soonest.length > 0 && (
        <fieldset className="sm:col-span-2" data-testid="soonest-dates">
          <legend className="mb-1 font-semibold">
            Lo antes posible: <span className="inline-block first-letter:uppercase">{formatLimaDate(soonest[0]!)}</span>
          </legend>
          <p className="mb-2 text-sm text-slate-600">Elige una de las próximas fechas, o un día de la semana abajo.</p>
          <div className="flex flex-wrap gap-2">
            {soonest.map((date) => (
              <button
                key={date}
                type="button"
                aria-pressed={form.fecha === date}
                onClick={() => onChooseDate(date)}
                className="rounded-2xl border px-4 py-2 text-sm font-semibold aria-pressed:border-brand-700 aria-pressed:bg-brand-50"
              >
                <span className="inline-block first-letter:uppercase">{formatLimaDate(date)}</span>
              </button>
            ))}
          </div>
        </fieldset>
      )}
      <Field label="Día de entrega" error={errorFor("diaHabil")}>
        {(props) => (
          <select
            {...props}
            className={inputClass}
            disabled={!district}
            value={form.diaHabil}
            onChange={(e) => update("diaHabil", e.target.value)}
            onBlur={touch("diaHabil")}
          >
            <option value="">{district ? "Selecciona un día" : "Primero elige tu distrito"}</option>
            {district?.dayNumbers.map((day) => (
              <option key={day} value={day}>
                {weekdayNames[day]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset className="sm:col-span-2">
        <legend className="mb-1 font-semibold">Fecha</legend>
        <p className="mb-2 text-sm text-slate-600">Requiere mínimo 1 día de anticipación</p>
        {dates.length === 0 ? (
          <p className="text-sm text-slate-500">
            {form.diaHabil ? "No quedan fechas disponibles para ese día. Elige otro día." : "Elige el día de entrega para ver las fechas disponibles."}
          </p>
        ) : (
          <div className="flex flex-wrap gap-3">
            {dates.map((date) => (
              <label
                key={date}
                className="flex cursor-pointer items-center gap-2 rounded-2xl border px-4 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="fecha"
                  value={date}
                  checked={form.fecha === date}
                  onChange={() => update("fecha", date)}
                  className="accent-brand-700"
                />
                <span className="first-letter:uppercase">{formatLimaDate(date)}</span>
              </label>
            ))}
          </div>
        )}
        {missedDates.length > 0 && (
          <ul className="mt-2 space-y-1 text-sm text-slate-600" data-testid="missed-dates" aria-label="Fechas no disponibles">
            {missedDates.map((day) => (
              <li key={day.date} title={day.reason}>
                <span className="line-through">
                  <span className="inline-block first-letter:uppercase">{formatLimaDate(day.date)}</span>
                </span>
                : {day.reason}
              </li>
            ))}
          </ul>
        )}
        {errorFor("fecha") && form.diaHabil && <p className="mt-1 text-sm text-red-700">{errorFor("fecha")}</p>}
      </fieldset>
      <fieldset className="sm:col-span-2">
        <legend className="mb-2 font-semibold">
          Rango horario <span className="text-sm font-normal text-slate-600">(Referencial)</span>
        </legend>
        <div className="flex flex-wrap gap-3">
          {(Object.keys(deliveryWindows) as DeliveryWindow[]).map((window) => {
            const full = windowsOfDate?.find((offer) => offer.window === window)?.hasRoom === false;
            return (
              <label
                key={window}
                className={`flex items-center gap-2 rounded-2xl border px-4 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 ${full ? "cursor-not-allowed text-slate-500" : "cursor-pointer"}`}
              >
                <input
                  type="radio"
                  name="rangoHorario"
                  value={window}
                  disabled={full}
                  checked={form.rangoHorario === window}
                  onChange={() => update("rangoHorario", window)}
                  className="accent-brand-700"
                />
                {deliveryWindows[window].label} ({deliveryWindows[window].hours}){full && " · Sin cupos"}
              </label>
            );
          })}
        </div>
        {errorFor("rangoHorario") && <p className="mt-1 text-sm text-red-700">{errorFor("rangoHorario")}</p>}
      </fieldset>
    </fieldset>
  );
}
