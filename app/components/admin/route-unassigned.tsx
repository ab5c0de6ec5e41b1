import type { RouteOptimisationResult } from "@server/deliveries/index.server";

/** The deliveries a plan leaves off every route, each with the reason (issue 26: never dropped silently). */
export function UnassignedList({ unassigned }: { unassigned: RouteOptimisationResult["unassigned"] }) {
  if (unassigned.length === 0) return <p className="mt-2 font-semibold text-green-900">Todos los envíos tienen ruta.</p>;
  return (
    <div className="mt-2 rounded-xl bg-amber-50 p-3" data-testid="route-unassigned">
      <p className="font-semibold text-amber-900">{unassigned.length === 1 ? "1 envío queda sin ruta:" : `${unassigned.length} envíos quedan sin ruta:`}</p>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {unassigned.map((left) => (
          <li key={left.deliveryId}>
            <span className="font-semibold">{left.deliveryNumber}</span>: {left.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
