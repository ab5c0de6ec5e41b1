import type { DispatchDay, DispatchGroup, LoadLine } from "@server/deliveries/index.server";
import { DeliveryStatusBadge } from "~/components/deliveries/delivery-status";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatSoles } from "@core/money";

/** Units of each product and variant to load, and the returnable bidones going out and coming back. */
export function DispatchLoadSummary({ load, bidones }: { load: LoadLine[]; bidones: { full: number; empty: number } }) {
  return (
    <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100" data-testid="dispatch-load">
      <h2 className="font-bold text-slate-900">Para cargar</h2>
      {load.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">Nada por cargar.</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm">
          {load.map((line) => (
            <li key={`${line.productId}:${line.variantId ?? ""}`} className="flex justify-between gap-3">
              <span>
                {line.title}
                {line.variantTitle ? ` · ${line.variantTitle}` : ""}
              </span>
              <span className="font-semibold whitespace-nowrap">× {line.units}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-3 border-t border-slate-100 pt-3 text-sm font-semibold text-slate-900" data-testid="dispatch-bidones">
        Bidones 20 L: {bidones.full} llenos salen · {bidones.empty} vacíos vuelven
      </p>
    </div>
  );
}

/** The day's places against capacity: the shop-wide pool per window, and the closed day's name. */
export function DispatchCapacitySummary({ pool, closedName }: { pool: DispatchDay["pool"]; closedName: string | null }) {
  return (
    <p className="rounded-2xl bg-white p-4 text-sm text-slate-800 shadow-sm ring-1 ring-slate-100" data-testid="dispatch-capacity">
      {closedName ? <strong className="text-red-800">{`Día cerrado: ${closedName}. `}</strong> : null}
      Cupos compartidos:{" "}
      {pool.map((slot, index) => (
        <span key={slot.window}>
          {index > 0 ? " · " : ""}
          {`${deliveryWindowLabel(slot.window)} ${slot.used}/${slot.capacity ?? "sin límite"}`}
        </span>
      ))}
    </p>
  );
}

/** The day's deliveries by district and window, each with its box for the bulk actions. */
export function DispatchDeliveryList({
  groups,
  selected,
  late = {},
}: {
  groups: DispatchGroup[];
  selected: Set<string>;
  /** Issue 40: deliveries that will miss their slot, with the reason (the one arrival estimate). */
  late?: Record<string, string>;
}) {
  return (
    <div className="space-y-6">
      {groups.map((group) => {
        const headingId = `grupo-${group.districtId}-${group.deliveryWindow}`;
        return (
          <section key={headingId} aria-labelledby={headingId} className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-100" data-testid="dispatch-group">
            <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 px-4 py-3">
              <h2 id={headingId} className="font-bold text-slate-900">
                {group.districtName} · {deliveryWindowLabel(group.deliveryWindow)}
              </h2>
              <p className="text-sm text-slate-700" data-testid="dispatch-group-count">
                {group.deliveries.length} {group.deliveries.length === 1 ? "envío" : "envíos"} ·{" "}
                {group.capacity === null ? "cupo compartido" : `capacidad ${group.capacity}`}
              </p>
            </header>
            {/* Few elements per row, styled once by `.dispatch-rows` (app.css): the page may carry 2 000 rows. */}
            <ul className="dispatch-rows divide-y divide-slate-100">
              {group.deliveries.map((delivery) => (
                <li key={delivery.id} data-testid="dispatch-delivery">
                  <label>
                    <input type="checkbox" name="ids" value={delivery.id} defaultChecked={selected.has(delivery.id)} />
                    {`${delivery.deliveryNumber} · ${delivery.customerName}`}
                  </label>
                  <DeliveryStatusBadge status={delivery.status} />
                  {late[delivery.id] && (
                    <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-bold text-red-900" title={late[delivery.id]} data-testid="dispatch-late">
                      Con retraso
                    </span>
                  )}
                  <small>
                    {`${delivery.address} · ${delivery.customerPhone} · Pedido ${delivery.orderNumber} · ${delivery.driverName ? `Repartidor: ${delivery.driverName}` : "Sin repartidor"}`}
                    {delivery.amountToCollectCents !== null && <strong>{` · Cobrar ${formatSoles(delivery.amountToCollectCents)}`}</strong>}
                  </small>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
