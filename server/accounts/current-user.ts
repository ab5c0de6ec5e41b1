import { LRUCache } from "lru-cache";
import type { Database } from "../db/client";
import { noteRequestRole } from "../observability/index.server";
import { authFor } from "./auth";
import { userRoleOf, type UserRole } from "@core/staff-roles";

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

/**
 * Issue 13: every signed-in page asked the database for the session and its user (and the
 * account area asked twice: middleware and page). A verified answer is kept for a few seconds in
 * this process, keyed by the whole signed cookie value, so only a cookie better-auth has already
 * accepted, signature included, can hit. Whatever ends or changes a session or a user in this
 * process (sign-out, password change or reset, deactivation, role or profile change, e-mail
 * verification) forgets every entry at once; another server process on the same PostgreSQL
 * learns of it within SIGNED_IN_CACHE_MS at most (docs/decisions/0047).
 */
export const SIGNED_IN_CACHE_MS = 5_000;

interface CachedUser {
  user: Promise<SignedInUser | null>;
  expires: number;
  generation: number;
}

let generation = 0;
const signedInCache = new WeakMap<Database, LRUCache<string, CachedUser>>();

/** Makes the next request of every session ask the database again (see SIGNED_IN_CACHE_MS). */
export function forgetSignedInUsers(): void {
  generation += 1;
}

const SESSION_COOKIE = /(?:^|;\s*)((?:__Secure-)?va\.session_token=[^;]*)/;

/** The customer signed in on this request, from the session row the cookie points to. */
export async function getSignedInUser(db: Database, request: Request): Promise<SignedInUser | null> {
  const cookie = SESSION_COOKIE.exec(request.headers.get("cookie") ?? "")?.[1];
  if (!cookie) return null;
  let cache = signedInCache.get(db);
  if (!cache) signedInCache.set(db, (cache = new LRUCache({ max: 10_000 })));
  const now = Date.now();
  const hit = cache.get(cookie);
  if (hit && hit.expires > now && hit.generation === generation) return noteRole(request, hit.user);
  // Concurrent requests of one session share one lookup; a refusal is never kept.
  const entry: CachedUser = { user: lookUpSignedInUser(db, request), expires: now + SIGNED_IN_CACHE_MS, generation };
  cache.set(cookie, entry);
  entry.user.then(
    (user) => {
      if (!user && cache.get(cookie) === entry) cache.delete(cookie);
    },
    () => {
      if (cache.get(cookie) === entry) cache.delete(cookie);
    },
  );
  return noteRole(request, entry.user);
}

/** The request's log line says which kind of user asked (issue 27), never who. */
async function noteRole(request: Request, user: Promise<SignedInUser | null>): Promise<SignedInUser | null> {
  const found = await user;
  if (found) noteRequestRole(request, found.role);
  return found;
}

async function lookUpSignedInUser(db: Database, request: Request): Promise<SignedInUser | null> {
  const session = await authFor(db).api.getSession({ headers: sessionHeaders(request) });
  if (!session) return null;
  const { user } = session;
  if (user.status !== "active") return null;
  // Shared by the requests of this session for a few seconds: nobody may change it.
  return Object.freeze({
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: `${user.firstName} ${user.lastName}`.trim(),
    role: userRoleOf(user.role ?? "customer"),
    sessionId: session.session.id,
  });
}
