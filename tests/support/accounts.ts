/** Signing in from tests: through the real /login and /register actions, never by forging a session. */
import type { BrowserContextOptions } from "playwright-core";
import { randomUUID } from "node:crypto";
import { DEMO_CUSTOMER } from "@server/db/seed/demo-credentials";
import type { useBrowser } from "./e2e";

export { DEMO_CUSTOMER };
export const STRONG_PASSWORD = "Agua1234";

export interface SessionCookie {
  name: string;
  value: string;
}

export function uniqueEmail(prefix = "cliente"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@prueba.pe`;
}

function cookiesFrom(response: Response): SessionCookie[] {
  return response.headers.getSetCookie().map((header) => {
    const [pair] = header.split(";");
    const index = pair!.indexOf("=");
    return { name: pair!.slice(0, index), value: pair!.slice(index + 1) };
  });
}

async function postForm(baseURL: string, path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${baseURL}${path}`, {
    method: "POST",
    headers: { Origin: baseURL, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

export async function signInCookies(baseURL: string, email: string, password: string, remember = true): Promise<SessionCookie[]> {
  const response = await postForm(baseURL, "/login", { email, password, ...(remember ? { remember: "on" } : {}) });
  if (response.status !== 302) throw new Error(`Sign-in of ${email} failed with ${response.status}`);
  return cookiesFrom(response);
}

/** Registers a new customer through /register and returns their session cookies. */
export async function registerCustomer(
  baseURL: string,
  customer: { email?: string; firstName?: string; lastName?: string; password?: string; phone?: string } = {},
) {
  const email = customer.email ?? uniqueEmail();
  const password = customer.password ?? STRONG_PASSWORD;
  const response = await postForm(baseURL, "/register", {
    firstName: customer.firstName ?? "Rosa",
    lastName: customer.lastName ?? "Quispe",
    email,
    password,
    confirmPassword: password,
    ...(customer.phone ? { phone: customer.phone } : {}),
  });
  if (response.status !== 302) throw new Error(`Registration of ${email} failed with ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return { email, password, cookies: cookiesFrom(response) };
}

export function cookieHeader(cookies: SessionCookie[]): string {
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

/** A page whose context already holds the session cookies. */
export async function openSignedIn(shop: ReturnType<typeof useBrowser>, cookies: SessionCookie[], options: BrowserContextOptions = {}) {
  const tracked = await shop.open(options);
  await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: shop.baseURL() })));
  return tracked;
}
