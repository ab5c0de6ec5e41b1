import { STAFF_ROLE_LABELS } from "@core/staff-roles";

/** Spanish names of the staff roles, looked up by a stored role (the audit log keeps former ones as written). */
export const staffRoleLabels: Readonly<Record<string, string>> = STAFF_ROLE_LABELS;
