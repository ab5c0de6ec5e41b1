/** The team page's forms (issue 10, /admin/equipo), checked again in its action. */
import { z } from "@core/zod";
import { emailField, strongPassword } from "@core/account-schemas";
import { lineText } from "@core/input-schemas";
import { STAFF_ROLES } from "@core/staff-roles";
const INVALID_ROLE = "Elige un rol del equipo";

const staffRole = z.enum(STAFF_ROLES, { message: INVALID_ROLE });
/** Accounts are named by better-auth's ids or the seed's uuids: short, letters, digits and dashes. */
const userId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "No encontramos a esa persona del equipo.");

export const createStaffSchema = z.object({
  firstName: lineText(80).trim().min(1, "Ingresa el nombre"),
  lastName: lineText(80).trim().min(1, "Ingresa el apellido"),
  email: emailField,
  role: staffRole,
  password: strongPassword,
});

/** "customer" takes every staff role away; the account stays, and can still shop. */
export const changeRoleSchema = z.object({ userId, role: z.enum([...STAFF_ROLES, "customer"], { message: INVALID_ROLE }) });
export const promoteSchema = z.object({ userId, role: staffRole });
export const memberSchema = z.object({ userId });
