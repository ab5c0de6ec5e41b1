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
export { dayCapacity, listActiveDrivers, loadDispatchDay, type CapacityLookup, type DispatchDay, type DispatchDelivery, type DispatchDriver, type DispatchGroup, type LoadLine } from "./dispatch-day";
export {
  assignDeliveries,
  DispatchRefusedError,
  ensureRescheduleAllowed,
  MAX_BULK_DELIVERIES,
  prepareDeliveries,
  rescheduleDeliveries,
  type DispatchActionResult,
} from "./dispatch-actions";
export { loadRouteSheets, moveRouteStop, type MoveStopResult, type RouteSheet, type RouteStop } from "./route-sheet";
export { bidonExchange, type BidonExchange } from "./returnable-bidones";
export { compareStops } from "./dispatch-scope";
