import { Link } from "react-router";
import type { LateDeliveriesAlarm } from "@server/deliveries/index.server";

/**
 * Inicio's late-deliveries alarm (issue 40), for admin and operaciones: today's deliveries that
 * will miss, or have missed, the slot promised at checkout, counted, each linked to its order, and
 * the day's Despacho where they carry a "Con retraso" badge.
 */
export function LateDeliveriesAlarmPanel({ alarm }: { alarm: LateDeliveriesAlarm }) {
  if (alarm.count === 0) return null;
  return (
    <section aria-labelledby="home-late" role="alert" className="mb-6 rounded-2xl border border-red-200 bg-red-50 p-5" data-testid="late-deliveries-alarm">
      <h2 id="home-late" className="text-lg font-bold text-red-900">
        Entregas de hoy con retraso: <span data-testid="late-deliveries-count">{alarm.count}</span>
      </h2>
      <ul className="mt-2 space-y-1 text-sm text-red-900">
        {alarm.rows.map((row) => (
          <li key={row.deliveryId} className="break-words" data-testid="late-delivery">
            <Link to={`/admin/pedidos/${row.orderId}`} className="font-semibold underline">
              {row.deliveryNumber}
            </Link>{" "}
            · {row.windowLabel} · {row.minutes} min tarde · {row.reason}
            {row.driverName ? ` · ${row.driverName}` : " · sin repartidor"}
          </li>
        ))}
      </ul>
      {alarm.count > alarm.rows.length && <p className="mt-1 text-sm text-red-900">Y {alarm.count - alarm.rows.length} más.</p>}
      <Link to={`/admin/despacho?fecha=${alarm.date}`} className="mt-3 inline-block font-semibold text-red-900 underline">
        Ver en Despacho
      </Link>
    </section>
  );
}
