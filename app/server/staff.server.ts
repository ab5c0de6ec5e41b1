import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { getSignedInUser, isStaffRole, type SignedInUser, type StaffRole } from "@server/accounts/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { may, type StaffPermission } from "@core/staff-permissions";
import { STAFF_PAGE_PERMISSIONS, type StaffPage } from "~/components/admin/staff-menu";
import { dbContext } from "./db-context.server";
import { clientAddress, loginUrlFor } from "./session.server";

export type StaffMember = SignedInUser & { role: StaffRole };

/** The signed-in staff member, set by the staff area's layout for every loader and action below it. */
export const staffContext = createContext<StaffMember>();

/**
 * What anyone outside a page's roles sees: the shop's Spanish 404, with nothing of the back office
 * in it (issue 10), so the page does not even admit it exists.
 */
export function staffNotFound(): never {
  throw data("Página no encontrada", { status: 404 });
}

/** The layout's first line: anonymous visitors to /login and back; customers to the 404. */
export const staffAreaMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const user = await getSignedInUser(context.get(dbContext), request);
  if (!user) throw redirect(loginUrlFor(request));
  if (!isStaffRole(user.role)) staffNotFound();
  context.set(staffContext, user as StaffMember);
  return next();
};

/**
 * Every staff route module states what it takes to use it: `export const middleware = [allowStaff("pedidos.gestionar")]`,
 * a permission of core/staff-permissions.ts (decision 0098). Route middleware runs before the
 * route's loader and its action, so one line guards both. The role-matrix test
 * (tests/e2e/admin-role-matrix.test.ts) fails for a route without a rule.
 */
export function allowStaff(permission: StaffPermission): MiddlewareFunction<Response> {
  return ({ context }, next) => {
    if (!may(context.get(staffContext).role, permission)) staffNotFound();
    return next();
  };
}

/**
 * The guard of a page the staff menu links to: the permission of its menu row, the same row the
 * menu reads, so the menu shows a role exactly the pages it may open (decision 0082).
 */
export function allowStaffPage(page: StaffPage): MiddlewareFunction<Response> {
  return allowStaff(STAFF_PAGE_PERMISSIONS[page]);
}

/** The signed-in staff member as the audit log records them. */
export function staffActor(context: Readonly<RouterContextProvider>, request: Request): StaffActor {
  const member = context.get(staffContext);
  return { id: member.id, email: member.email, role: member.role, clientAddress: clientAddress(request) };
}
