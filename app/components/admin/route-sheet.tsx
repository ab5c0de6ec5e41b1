import type { RouteSheet } from "@server/deliveries/index.server";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { pinLabel } from "~/lib/driver-stop-links";

/**
 * One driver's printable route sheet: stops in route order with what to hand over and collect, a
 * signature line per stop. Each sheet ends its printed page (`break-after: page`); the buttons that
 * reorder stops are not printed.
 */
export function RouteSheetView({ sheet, moveForm }: { sheet: RouteSheet; moveForm: (children: React.ReactNode) => React.ReactNode }) {
  const headingId = `hoja-${sheet.driverId}`;
  const collect = sheet.stops.reduce((sum, stop) => sum + (stop.amountToCollectCents ?? 0), 0);
  return (
    <section
      aria-labelledby={headingId}
      className="mb-8 break-after-page rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:p-6 print:mb-0 print:p-0 print:shadow-none print:ring-0"
      data-testid="route-sheet"
    >
      <header className="mb-4 border-b border-slate-200 pb-3">
        <h2 id={headingId} className="text-xl font-bold text-slate-900">
          Hoja de ruta · {sheet.driverName}
        </h2>
        <p className="text-slate-700 first-letter:uppercase">
          {formatLimaDate(sheet.date, { weekday: "long", day: "numeric", month: "long", year: "numeric" })} · {sheet.stops.length}{" "}
          {sheet.stops.length === 1 ? "parada" : "paradas"}
          {collect > 0 ? ` · Cobrar en total ${formatSoles(collect)}` : ""}
        </p>
      </header>
      <ol className="space-y-4">
        {sheet.stops.map((stop, index) => (
          <li key={stop.id} className="break-inside-avoid rounded-xl border border-slate-200 p-3" data-testid="route-stop">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 className="font-bold text-slate-900">
                {index + 1}. {stop.customerName} · {stop.deliveryNumber}
              </h3>
              {moveForm(
                <>
                  <input type="hidden" name="envio" value={stop.id} />
                  <input type="hidden" name="posicion" value={index + 1} />
                  <button
                    type="submit"
                    name="intent"
                    value="subir"
                    disabled={index === 0}
                    aria-label={`Subir la parada ${index + 1} (${stop.customerName})`}
                    className="rounded-lg border border-slate-300 px-3 py-1 text-sm font-semibold text-slate-800 disabled:opacity-40"
                  >
                    Subir
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="bajar"
                    disabled={index === sheet.stops.length - 1}
                    aria-label={`Bajar la parada ${index + 1} (${stop.customerName})`}
                    className="rounded-lg border border-slate-300 px-3 py-1 text-sm font-semibold text-slate-800 disabled:opacity-40"
                  >
                    Bajar
                  </button>
                </>,
              )}
            </div>
            <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="font-semibold text-slate-700">Llegada estimada</dt>
              <dd data-testid="route-stop-arrival">
                {stop.estimatedArrival ?? "Sin calcular (usa «Optimizar rutas» en Despacho)"}
                {stop.lateMinutes > 0 && (
                  <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 font-semibold text-red-900" data-testid="route-stop-late">
                    Fuera de horario: {stop.lateMinutes} min tarde
                  </span>
                )}
              </dd>
              <dt className="font-semibold text-slate-700">Dirección</dt>
              <dd className="break-words">
                {stop.address}, {stop.districtName} · {deliveryWindowLabel(stop.deliveryWindow)}
                {stop.approximate && (
                  <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900" data-testid="route-stop-approximate">
                    ubicación aproximada
                  </span>
                )}
              </dd>
              {stop.pin && (
                <>
                  <dt className="font-semibold text-slate-700">Ubicación (pin)</dt>
                  <dd className="tabular-nums" data-testid="route-stop-pin">
                    {pinLabel(stop.pin)}
                  </dd>
                </>
              )}
              {stop.reference && (
                <>
                  <dt className="font-semibold text-slate-700">Referencia</dt>
                  <dd className="break-words">{stop.reference}</dd>
                </>
              )}
              <dt className="font-semibold text-slate-700">Teléfono</dt>
              <dd>{stop.customerPhone}</dd>
              <dt className="font-semibold text-slate-700">Productos</dt>
              <dd>
                {stop.items.map((item) => `${item.quantity} × ${item.title}${item.variantTitle ? ` (${item.variantTitle})` : ""}`).join("; ")}
                {stop.bidones.full + stop.bidones.empty > 0 ? ` · Bidones: ${stop.bidones.full} llenos, recoger ${stop.bidones.empty} vacíos` : ""}
              </dd>
              <dt className="font-semibold text-slate-700">Cobrar</dt>
              <dd className={stop.amountToCollectCents !== null ? "font-bold text-red-800" : ""}>
                {stop.amountToCollectCents !== null ? formatSoles(stop.amountToCollectCents) : "Pagado"}
              </dd>
            </dl>
            <p className="mt-4 text-sm text-slate-700">Recibí conforme (nombre y firma): ______________________________</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
