export { findDeliveryForUser, listDeliveriesForUser, type CustomerDeliveryRow } from "./customer-deliveries";
export type { DeliveryStatusEntry } from "../db/schema";
export { OPEN_DELIVERY_STATUSES } from "./delivery-status";
export { transitionDeliveries } from "./transition";
export { listDriverStops } from "./driver-route";
export { listDriverRoute, type DriverRouteStop } from "./driver-stop-extras";
export { confirmDriverStop, type DriverConfirmation, type DriverStopOrderSteps } from "./driver-confirmations";
export { applyQueuedDriverConfirmations, type QueuedConfirmationAnswer, type QueuedDriverConfirmation } from "./driver-confirmation-queue";
export {
  bidonBalance,
  bidonBalances,
  bidonSummaryForUser,
  recentBidonMovements,
  type BidonBalance,
  type BidonCustomer,
  type BidonMovement,
} from "./bidon-ledger";
export { recordStaffBidonReturn } from "./staff-bidon-return";
export { cutoffFor, deliveryDateRefusal, loadDeliveryCalendar, loadNationalHolidays, servedDistrictOnDate } from "./calendar";
export { capacityForDay, claimSlot, SlotUnavailableError } from "./capacity";
export { claimNextSlotFrom, datesWithRoom, missedDeliveryDates, offeredDeliverySlots, type OfferedDate } from "./offered-slots";
export {
  addClosedDay,
  loadCalendarForStaff,
  removeClosedDay,
  restoreNationalHoliday,
  setCutoffTime,
  setDefaultCapacities,
  type CalendarChangeResult,
} from "./calendar-admin";
export {
  listDistrictsForStaff,
  loadDistrictForStaff,
  MAX_DISTRICT_NOTES,
  setDistrictCapacities,
  updateDistrictSettings,
  type DistrictChangeResult,
  type DistrictListRow,
} from "./district-admin";
export { listActiveDrivers, loadDispatchDay, type DispatchDay, type DispatchGroup, type LoadLine } from "./dispatch-day";
export { assignDeliveries, DispatchRefusedError, prepareDeliveries, rescheduleDeliveries, type DispatchActionResult } from "./dispatch-actions";
export { loadRouteSheets, moveRouteStop, type RouteSheet } from "./route-sheet";
export { loadUnitsBetween, type DayLoadLine } from "./load-forecast";
export { rescheduleDay } from "./reschedule-day";
export { tellRescheduledDeliveries } from "./rescheduled-email";
export { failedDeliveryToRebook, rebookFailedDelivery } from "./customer-rebook";
export { loadRouteSettings, saveRouteSettings, type RouteSettings } from "./route-settings";
export { MAX_VANS, planRoutes, type RouteOptimisationResult } from "./route-optimisation";
export type { PlannedRoute, PlannedStop } from "../db/schema";
export { applyRoutePlan, STALE_PLAN } from "./route-plan-apply";
export { InfeasibleAnswerError } from "./route-plan-compute";
export { deliveryOwner, deliveryTracking, trackedDeliveryOfOrder, type DeliveryTracking } from "./delivery-tracking";
export { lateBadges, lateDeliveriesAlarm, lateDeliveriesOfDay, tellLateDeliveries, type LateDeliveriesAlarm } from "./late-deliveries";
export { loadRouteOverview, type RouteOverview } from "./route-overview";
export { setOrderLocation } from "./order-location";
export { retimeDriverDay, type VanShift } from "./route-plan";
export { setDistrictCentre } from "./district-centre";
export {
  DELIVERY_PHOTO_REQUIRED,
  deliveriesWithPhotos,
  deliveryPhotoForCustomer,
  deliveryPhotoMissing,
  deliveryPhotosOfOrder,
  saveDeliveryPhoto,
} from "./delivery-photos";
