export { hasStaffAction, recordStaffAction, recordStaffActions, type StaffActor, type StaffActionEntry } from "./record";
export { listStaffActions, type StaffActionFilters, type StaffActionRow } from "./list";
