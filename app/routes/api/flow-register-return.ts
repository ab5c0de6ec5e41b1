import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { FLOW_REGISTER_RETURN_PATH } from "@server/payments/index.server";
import { isBodyTooLarge, readFormData } from "~/server/request-body.server";

/**
 * Flow's `url_return` for card registration (payments.md B.2): Flow's page POSTs the form field
 * `token` here from Flow's own site. That POST is cross-site: React Router refuses it on a page
 * route, and the session cookie (SameSite=Lax) does not come with it, so this route only forwards
 * the token to the customer's page with a 303 — a top-level GET, which carries the cookie — where
 * the signed-in customer's card is looked up with the signed API and the subscription activated
 * (decision 0021). It changes nothing by itself, which is why app/server/csrf.server.ts lets it through.
 */
export async function action({ request }: ActionFunctionArgs) {
  let token: FormDataEntryValue | null = null;
  try {
    token = (await readFormData(request)).get("token");
  } catch (error) {
    // Past the body limit: the 413. Anything else that is not a form is a return without a token.
    if (isBodyTooLarge(error)) throw error;
  }
  return redirect(returnPageUrl(typeof token === "string" ? token : null), 303);
}

/** A GET here (a browser retrying, or Flow ever returning by GET) goes to the same page. */
export function loader({ request }: LoaderFunctionArgs) {
  return redirect(returnPageUrl(new URL(request.url).searchParams.get("token")), 303);
}

/** Flow's tokens are 40 letters and digits; anything else is not forwarded. */
function returnPageUrl(token: string | null): string {
  const valid = token && /^[A-Za-z0-9]{8,128}$/.test(token.trim()) ? token.trim() : null;
  return valid ? `${FLOW_REGISTER_RETURN_PATH}?token=${encodeURIComponent(valid)}` : FLOW_REGISTER_RETURN_PATH;
}
