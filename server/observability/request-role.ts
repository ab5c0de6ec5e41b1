/**
 * Who made a request, for its log line (issue 27: the role, never who): "customer", a staff role,
 * or nothing when the request never asked (a page that does not look at the session). Noted by
 * the session lookup, read once the answer is ready; a WeakMap, so it dies with the request.
 */
const roles = new WeakMap<Request, string>();

export function noteRequestRole(request: Request, role: string): void {
  roles.set(request, role);
}

export function requestRoleOf(request: Request): string | undefined {
  return roles.get(request);
}
