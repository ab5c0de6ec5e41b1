export {
  findDeliveryForUser,
  listDeliveriesForUser,
  UPCOMING_DELIVERIES_LIMIT,
  type CustomerDeliveryDetail,
  type CustomerDeliveryRow,
} from "./customer-deliveries";
export type { DeliveryStatusEntry } from "../db/schema";
