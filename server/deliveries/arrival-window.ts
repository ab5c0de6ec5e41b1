import type { DatabaseOrTransaction } from "../db/transaction";

/** An estimated arrival at a stop, as Lima's clock reads it ("10:30" to "11:30"). */
export interface EstimatedArrival {
  from: string;
  to: string;
}

/**
 * When the driver is expected at this stop today, or null when the route does not know. The
 * "en camino" WhatsApp message (issue 25) says the window when there is one and leaves it out
 * otherwise (template `pedido_en_camino_hora` vs `pedido_en_camino`).
 *
 * Today's routes carry an order of stops but no times, so this answers null. Route planning
 * fills it in (travel times between stops, the driver's start): nothing else has to change.
 */
export async function estimatedArrivalWindow(_db: DatabaseOrTransaction, _stop: { deliveryId: string; now: Date }): Promise<EstimatedArrival | null> {
  return null;
}
