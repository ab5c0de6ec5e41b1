import type { DatabaseOrTransaction } from "../db/transaction";
import { deliveryTracking } from "./delivery-tracking";

/** An estimated arrival at a stop, as Lima's clock reads it ("10:30" to "11:30"). */
export interface EstimatedArrival {
  from: string;
  to: string;
}

/**
 * When the driver is expected at this stop today, or null when the route does not know (no
 * planned times yet). The "en camino" WhatsApp message (issue 25) says the window when there is one
 * and leaves it out otherwise (template `pedido_en_camino_hora` vs `pedido_en_camino`). The window
 * is the customer's tracking's (decision 0078, `deliveryTracking`), so the message and the order's
 * page say the same.
 */
export async function estimatedArrivalWindow(db: DatabaseOrTransaction, stop: { deliveryId: string; now: Date }): Promise<EstimatedArrival | null> {
  const tracking = await deliveryTracking(db, stop.deliveryId, stop.now);
  return tracking.kind === "on_route" ? tracking.window : null;
}
