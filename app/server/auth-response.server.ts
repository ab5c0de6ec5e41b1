import { redirect } from "react-router";

/** A redirect that carries better-auth's Set-Cookie headers (one per cookie, never joined). */
export function redirectWithAuthCookies(to: string, authHeaders: Headers): Response {
  const response = redirect(to);
  for (const cookie of authHeaders.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  return response;
}
