export { hasStaffAction, recordStaffAction, recordStaffActions, type StaffActor, type StaffActionEntry } from "./record";
export { listStaffActions, type StaffActionFilters } from "./list";
