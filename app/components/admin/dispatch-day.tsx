import type { DispatchGroup, LoadLine } from "@server/deliveries/index.server";
import { DeliveryStatusBadge } from "~/components/deliveries/delivery-status";
import { deliveryWindowLabel } from "~/lib/delivery-schedule";
import { formatSoles } from "~/lib/money";

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

/** The day's deliveries by district and window, each with its box for the bulk actions. */
export function DispatchDeliveryList({ groups, selected }: { groups: DispatchGroup[]; selected: Set<string> }) {
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
                {group.deliveries.length} {group.deliveries.length === 1 ? "envío" : "envíos"} · capacidad {group.capacity ?? "—"}
              </p>
            </header>
            {/* Row styles sit on the list (`*:`), not on each of up to 2 000 rows: the page stays small. */}
            <ul className="divide-y divide-slate-100 *:flex *:flex-wrap *:items-start *:gap-x-4 *:gap-y-1 *:px-4 *:py-3">
              {group.deliveries.map((delivery) => (
                <li key={delivery.id} data-testid="dispatch-delivery">
                  <input type="checkbox" name="ids" value={delivery.id} id={delivery.id} defaultChecked={selected.has(delivery.id)} className="mt-1 size-5 shrink-0 accent-brand-700" />
                  <div className="min-w-0 flex-1 basis-48">
                    <label htmlFor={delivery.id} className="font-semibold">
                      {delivery.deliveryNumber} · {delivery.customerName}
                    </label>
                    <p className="text-sm break-words text-slate-700">
                      {delivery.address} · {delivery.customerPhone} · Pedido {delivery.orderNumber}
                    </p>
                  </div>
                  <p className="flex flex-wrap items-center gap-2 text-sm">
                    <DeliveryStatusBadge status={delivery.status} />
                    <span>{delivery.driverName ? `Repartidor: ${delivery.driverName}` : "Sin repartidor"}</span>
                    {delivery.amountToCollectCents !== null && <strong className="text-red-800">Cobrar {formatSoles(delivery.amountToCollectCents)}</strong>}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
