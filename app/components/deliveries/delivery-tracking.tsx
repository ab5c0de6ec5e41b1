import { useEffect, useState } from "react";
import type { DeliveryTracking } from "@server/deliveries/index.server";

/** At most this many polls per page view (about four hours at the default 30 s). */
const MAX_POLLS = 500;

export function trackingHeadline(tracking: DeliveryTracking): string | null {
  if (tracking.kind !== "on_route") return null;
  const status = tracking.started ? "En camino" : "Programado para hoy";
  if (tracking.stopsBefore === null) return status;
  if (tracking.isNext) return `${status} · Eres la siguiente parada`;
  return `${status} · Faltan ${tracking.stopsBefore} ${tracking.stopsBefore === 1 ? "parada" : "paradas"}`;
}

/**
 * The delivery day as the customer follows it (issue 26): stops left before theirs and the window
 * the van should ring in, narrowing as the stops before are done; after delivery, who received it
 * and the bidones. With JavaScript it asks the server again every `pollSeconds` while the van is on
 * its way (not while the tab is hidden, and at most MAX_POLLS times); without, the page shows what
 * it had when loaded.
 */
export function DeliveryTrackingPanel({
  deliveryId,
  initial,
  pollSeconds,
  token,
}: {
  deliveryId: string;
  initial: DeliveryTracking;
  pollSeconds: number;
  /** The receipt link's token, when the page was opened through it (/orden/{id}?token=…). */
  token?: string | null;
}) {
  const [tracking, setTracking] = useState(initial);
  const active = tracking.kind === "on_route";

  useEffect(() => {
    if (!active) return;
    let polls = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const url = `/api/envios/${deliveryId}/seguimiento${token ? `?token=${encodeURIComponent(token)}` : ""}`;
    const schedule = () => {
      if (!stopped && polls < MAX_POLLS && !document.hidden) timer = setTimeout(() => void poll(), pollSeconds * 1000);
    };
    async function poll() {
      polls += 1;
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
        if (response.ok) {
          const body = (await response.json()) as { tracking: DeliveryTracking };
          if (!stopped) setTracking(body.tracking);
        }
      } catch {
        // No signal for a moment: the next poll tries again; the page keeps what it showed.
      }
      schedule();
    }
    const onVisibility = () => {
      clearTimeout(timer);
      if (!document.hidden) void poll();
    };
    document.addEventListener("visibilitychange", onVisibility);
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [active, deliveryId, pollSeconds, token]);

  if (tracking.kind === "on_route") {
    const tone = tracking.delayed ? "bg-amber-50 text-amber-950" : "bg-brand-50 text-brand-900";
    return (
      <div className={`rounded-2xl p-4 ${tone}`} role="status" aria-live="polite" data-testid="delivery-tracking">
        <p className="font-bold" data-testid="delivery-tracking-headline">
          {trackingHeadline(tracking)}
        </p>
        {tracking.delayed && (
          <p data-testid="delivery-tracking-late">
            <span className="mr-2 inline-block rounded-full bg-amber-200 px-2 py-0.5 text-sm font-bold">Con retraso</span>
            {tracking.window ? "No llegaremos en el horario que elegiste" : "Tu horario ya pasó"}: {tracking.delayed.reason}.
          </p>
        )}
        {tracking.window && (
          <p data-testid="delivery-tracking-window">
            Llegada estimada entre {tracking.window.from} y {tracking.window.to}
          </p>
        )}
        {tracking.driverFirstName && <p data-testid="delivery-tracking-driver">Te atiende {tracking.driverFirstName}.</p>}
      </div>
    );
  }
  if (tracking.kind === "delivered") {
    return (
      <div className="rounded-2xl bg-green-50 p-4 text-green-900" role="status" aria-live="polite" data-testid="delivery-tracking">
        <p className="font-bold" data-testid="delivery-tracking-headline">
          Entregado a las {tracking.at}
          {tracking.receiverName ? ` · Recibió ${tracking.receiverName}` : ""}
        </p>
        <p>
          Bidones: {tracking.fullBidones} {tracking.fullBidones === 1 ? "lleno dejado" : "llenos dejados"} · {tracking.emptyBidones}{" "}
          {tracking.emptyBidones === 1 ? "vacío recogido" : "vacíos recogidos"}
        </p>
      </div>
    );
  }
  return null;
}
