/**
 * README: the demo accounts' sign-in details, in a module of their own that imports nothing, so that
 * a browser test can name them without loading the seeding code and the domains behind it (which
 * cost every test file that imported demo-accounts.ts several seconds of imports).
 */
import type { StaffRole } from "@core/staff-roles";

/** The customer has enough history to exercise every account screen. */
export const DEMO_CUSTOMER = { email: "cliente@demo.pe", password: "Cliente123", firstName: "María", lastName: "Fernández" } as const;
export const DEMO_ADMIN = { email: "admin@demo.pe", password: "Admin1234", firstName: "Administración", lastName: "Vida Alcalina" } as const;

/** Issue 10: one demo account per staff role besides the admin, listed in the README. */
export const DEMO_OPERACIONES = { email: "operaciones@demo.pe", password: "Operaciones1234", firstName: "Carla", lastName: "Operaciones" } as const;
export const DEMO_REPARTIDOR = { email: "repartidor@demo.pe", password: "Reparto1234", firstName: "Jorge", lastName: "Repartidor" } as const;

/** One demo account per staff role (a new role gets one: the role-matrix test signs in as each). */
export const DEMO_STAFF: Readonly<Record<StaffRole, { email: string; password: string; firstName: string; lastName: string }>> = {
  admin: DEMO_ADMIN,
  operaciones: DEMO_OPERACIONES,
  repartidor: DEMO_REPARTIDOR,
};
