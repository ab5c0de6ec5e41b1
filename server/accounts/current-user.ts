import type { Database } from "../db/client";
import { authFor } from "./auth";
import { userRoleOf, type UserRole } from "./staff-roles";

export interface SignedInUser {
  id: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  fullName: string;
  role: UserRole;
  sessionId: string;
}

/** Only the cookie reaches better-auth: nothing else from the browser's request is needed. */
export function sessionHeaders(request: Request): Headers {
  const headers = new Headers();
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  return headers;
}

/** The customer signed in on this request, from the session row the cookie points to. */
export async function getSignedInUser(db: Database, request: Request): Promise<SignedInUser | null> {
  if (!request.headers.get("cookie")?.includes("va.session_token")) return null;
  const session = await authFor(db).api.getSession({ headers: sessionHeaders(request) });
  if (!session) return null;
  const { user } = session;
  if (user.status !== "active") return null;
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
    role: userRoleOf(user.role ?? "customer"),
    sessionId: session.session.id,
  };
}
