import { data } from "react-router";
import type { Route } from "./+types/email-registered";
import { consumeRateLimit, getSignedInUser, provenAccountOf, RATE_LIMITS } from "@server/accounts/index.server";
import { dbContext } from "~/server/db-context.server";
import { isEmailAddress } from "@core/email-address";
import { methodNotAllowedJson, readJson } from "~/server/request-body.server";
import { clientKey } from "~/server/session.server";

/**
 * Spec §7 check-user-email: whether a guest's checkout email has an account, so the checkout can
 * say the order can be added to it from the confirmation e-mail (issue 39: a guest order is never
 * filed under an account by its typed address). Rate-limited per client: it must not become a way
 * to test thousands of addresses.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  if (request.method !== "POST") return methodNotAllowedJson();
  const body = (await readJson(request)) as { email?: unknown } | null;
  const email = typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
  if (!isEmailAddress(email)) return data({ exists: false, error: "Ingresa un correo válido" }, { status: 400 });
  if (await getSignedInUser(db, request)) return { exists: false };
  const limit = await consumeRateLimit(db, `email-check:${clientKey(request)}`, RATE_LIMITS.emailCheckPerClient);
  if (!limit.allowed) return data({ exists: false, error: "Demasiadas solicitudes. Inténtalo de nuevo más tarde." }, { status: 429 });
  // "Exists" means the confirmation e-mail will offer to add the order: an account whose owner proved the address (decision 0072).
  return { exists: (await provenAccountOf(db, email)) !== null };
}
