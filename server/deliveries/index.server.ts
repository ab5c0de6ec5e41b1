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
export { listDriverRoute, type DriverRouteStop } from "./driver-stop-extras";
export { confirmDriverStop, type DriverConfirmation, type DriverConfirmationResult, type DriverStopOrderSteps } from "./driver-confirmations";
export { applyQueuedDriverConfirmations, type QueuedConfirmationAnswer, type QueuedDriverConfirmation } from "./driver-confirmation-queue";
export {
  bidonBalance,
  bidonBalances,
  bidonSummaryForUser,
  ledgerCustomerOf,
  recentBidonMovements,
  type BidonBalance,
  type BidonCustomer,
  type BidonMovement,
} from "./bidon-ledger";
export { recordStaffBidonReturn, type StaffBidonReturnResult } from "./staff-bidon-return";
export {
  cutoffFor,
  deliveryDateRefusal,
  loadDeliveryCalendar,
  loadNationalHolidays,
  servedDistrictOnDate,
  type DeliveryCalendar,
  type ServedDistrictOnDate,
} from "./calendar";
export {
  assertSlotsAvailable,
  capacityForDay,
  claimSlot,
  claimSlots,
  DELIVERY_WINDOWS,
  SlotUnavailableError,
  type DayCapacity,
  type SlotClaim,
  type SlotRequest,
} from "./capacity";
export {
  claimNextSlotFrom,
  datesWithRoom,
  MAX_POSTPONE_DAYS,
  missedDeliveryDates,
  offeredDeliverySlots,
  type MissedDate,
  type OfferedDate,
} from "./offered-slots";
export {
  addClosedDay,
  loadCalendarForStaff,
  MAX_WINDOW_CAPACITY,
  removeClosedDay,
  restoreNationalHoliday,
  setCutoffTime,
  setDefaultCapacities,
  type CalendarAdminView,
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
  type DistrictStaffView,
} from "./district-admin";
export {
  listActiveDrivers,
  loadDispatchDay,
  type DispatchDay,
  type DispatchDelivery,
  type DispatchDriver,
  type DispatchGroup,
  type LoadLine,
} from "./dispatch-day";
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
export { bidonExchange, garantiaBidones, type BidonExchange } from "./returnable-bidones";
export { compareStops } from "./dispatch-scope";
export { loadUnitsBetween, type DayLoadLine } from "./load-forecast";
export { rescheduleDay, type RescheduleDayResult } from "./reschedule-day";
export { tellRescheduledDeliveries, type MovedDelivery } from "./rescheduled-email";
export { failedDeliveryToRebook, rebookFailedDelivery, type FailedDeliveryToRebook, type RebookLookup, type RebookResult } from "./customer-rebook";
export { estimatedArrivalWindow, type EstimatedArrival } from "./arrival-window";
export { loadRouteSettings, saveRouteSettings, type RouteSettings } from "./route-settings";
export { latestRouteOptimisation, MAX_VANS, planRoutes, type PlannedRun, type RouteOptimisationResult } from "./route-optimisation";
export type { PlannedRoute, PlannedStop } from "../db/schema";
export { applyRoutePlan, STALE_PLAN } from "./route-plan-apply";
export { InfeasibleAnswerError } from "./route-plan-compute";
export { deliveryOwner, deliveryTracking, trackedDeliveryOfOrder, type DeliveryTracking } from "./delivery-tracking";
export { routeProgress, type RouteProgress } from "./route-progress";
export { arrivalView, driverDayArrivals, type ArrivalView } from "./arrival-estimates";
export { lateBadges, lateDeliveriesAlarm, lateDeliveriesOfDay, tellLateDeliveries, type LateDeliveriesAlarm, type LateDelivery } from "./late-deliveries";
export { loadRouteOverview, type RouteOverview, type RouteOverviewDriver } from "./route-overview";
export { setOrderLocation, type OrderLocationResult } from "./order-location";
export { retimeDriverDay, type VanShift } from "./route-plan";
export { setDistrictCentre } from "./district-centre";
export {
  DELIVERY_PHOTO_REQUIRED,
  deliveriesWithPhotos,
  deliveryPhotoForCustomer,
  deliveryPhotoMissing,
  deliveryPhotosOfOrder,
  saveDeliveryPhoto,
  type DeliveryPhoto,
  type SaveDeliveryPhotoResult,
} from "./delivery-photos";
