import type { DeliveryStatusEntry } from "@server/deliveries/index.server";
import { deliveryStatusLabel, deliveryStatusTone } from "@core/delivery-labels";
import { formatLimaInstant } from "@core/lima-dates";

export function DeliveryStatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold whitespace-nowrap ${deliveryStatusTone(status)}`} data-testid="delivery-status">
      {deliveryStatusLabel(status)}
    </span>
  );
}

/**
 * The delivery's status history as an ordered list, oldest first, so it reads as the story of the
 * delivery; the last step is the current one. Times are Lima's clock (decisions.md).
 */
export function DeliveryTimeline({ history }: { history: DeliveryStatusEntry[] }) {
  return (
    <ol aria-label="Historial del envío" className="relative space-y-5 border-l-2 border-brand-100 pl-6" data-testid="delivery-timeline">
      {history.map((entry, index) => {
        const current = index === history.length - 1;
        return (
          <li key={`${entry.status}-${entry.timestamp}`} aria-current={current ? "step" : undefined} className="relative">
            <span
              aria-hidden="true"
              className={`absolute top-1 -left-[1.95rem] h-3.5 w-3.5 rounded-full ring-4 ring-white ${current ? "bg-brand-700" : "bg-brand-200"}`}
            />
            <p className={`font-semibold ${current ? "text-brand-900" : "text-slate-800"}`}>{deliveryStatusLabel(entry.status)}</p>
            <p className="text-sm text-slate-600">
              <time dateTime={entry.timestamp}>{formatLimaInstant(entry.timestamp)}</time>
            </p>
            {entry.note && <p className="mt-1 text-sm text-slate-700">{entry.note}</p>}
          </li>
        );
      })}
    </ol>
  );
}
