/**
 * decisions.md, Roles: the three staff roles; everyone else is a `customer`. A pure rule on the
 * ground floor, so the audit log names a role without depending on accounts (decision 0083).
 */
export const STAFF_ROLES = ["admin", "operaciones", "repartidor"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export type UserRole = "customer" | StaffRole;

/** The roles' Spanish names, as the back office shows them (the team form, the audit log, the header). */
export const STAFF_ROLE_LABELS: Readonly<Record<StaffRole, string>> = {
  admin: "Administración",
  operaciones: "Operaciones",
  repartidor: "Repartidor",
};

export function isStaffRole(role: string): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role);
}

/** A stored role that is not one we know (a typo in SQL) is a customer: it never opens the back office. */
export function userRoleOf(stored: string): UserRole {
  return isStaffRole(stored) ? stored : "customer";
}
