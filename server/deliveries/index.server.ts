export {
  findDeliveryForUser,
  listDeliveriesForUser,
  UPCOMING_DELIVERIES_LIMIT,
  type CustomerDeliveryDetail,
  type CustomerDeliveryRow,
} from "./customer-deliveries";
export type { DeliveryStatusEntry } from "../db/schema";
export {
  DELIVERY_STATUSES,
  DELIVERY_MAIN_PATH,
  OPEN_DELIVERY_STATUSES,
  deliveryPath,
  isDeliveryStatus,
  InvalidDeliveryTransitionError,
  type DeliveryStatus,
} from "./delivery-status";
export { transitionDeliveries, type DeliveryChange, type DeliveryTransitionResult } from "./transition";
export { listDriverStops, type DriverStop } from "./driver-route";
export { confirmDriverStop, type DriverConfirmation, type DriverConfirmationResult } from "./driver-confirmations";
export { bidonBalance, bidonSummaryForUser, recentBidonMovements, type BidonBalance, type BidonCustomer, type BidonMovement } from "./bidon-ledger";
