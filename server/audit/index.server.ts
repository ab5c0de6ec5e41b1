export { hasStaffAction, recordStaffAction, recordStaffActions, type StaffActor, type StaffActionEntry } from "./record";
export { listStaffActions, STAFF_ACTIONS_PAGE_SIZE, type StaffActionFilters, type StaffActionRow } from "./list";
