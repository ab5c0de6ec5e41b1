import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/add-order";
import { addGuestOrderToAccount, readOrderClaim, type OrderClaimRefusal } from "@server/accounts/index.server";
import { AccountSection } from "~/components/account/account-page";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { readFormData } from "~/server/request-body.server";
import { userContext } from "~/server/session.server";
import { isPlainLine, isUuid } from "@core/input-schemas";

const TITLE = "Agregar pedido a mi cuenta";
const INVALID_LINK = "El enlace no es válido. Usa el enlace completo del correo de confirmación de tu pedido.";

/** The Spanish answer to each refusal (issue 39). */
const REFUSALS: Record<OrderClaimRefusal, string> = {
  invalid_link: INVALID_LINK,
  other_account:
    "Este pedido se hizo con el correo de otra cuenta, así que no puede agregarse a la tuya. Si esa cuenta también es tuya, cierra sesión e ingresa con ella.",
  address_not_proven:
    "Antes de agregar pedidos hechos sin cuenta, confirma que este correo es tuyo: usa «¿Olvidaste tu contraseña?» y elige tu contraseña con el enlace que te enviemos.",
  not_a_guest_order: "Este pedido ya pertenece a otra cuenta.",
};
const STATUS: Record<OrderClaimRefusal, number> = { invalid_link: 404, other_account: 403, address_not_proven: 403, not_a_guest_order: 409 };

const tokenOf = (value: unknown) => (typeof value === "string" && value.length <= 100 && isPlainLine(value) ? value : "");

/**
 * "Agregar este pedido a mi cuenta" (issue 39, decision 0072): the link of a guest order's
 * confirmation e-mail. The account area's guard sends a visitor who is not signed in to /login and
 * back here. The GET only shows the order's number and the button; the button (a POST) adds the
 * order, for the account of the order's own address only (server/accounts/order-claim.ts).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  if (!isUuid(params.orderId) || !token) throw data(INVALID_LINK, { status: 404 });
  const user = context.get(userContext);
  const view = await readOrderClaim(context.get(dbContext), { orderId: params.orderId, token, user });
  if (!view.ok && view.reason === "invalid_link") throw data(INVALID_LINK, { status: 404 });
  return view.ok
    ? { token, orderNumber: view.orderNumber, alreadyInAccount: view.alreadyInAccount, refusal: null }
    : { token, orderNumber: null, alreadyInAccount: false, refusal: REFUSALS[view.reason] };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const token = tokenOf(form.get("token"));
  if (!isUuid(params.orderId) || !token) return data({ added: false, error: INVALID_LINK }, { status: 404 });
  const user = context.get(userContext);
  const result = await addGuestOrderToAccount(context.get(dbContext), { orderId: params.orderId, token, user, now: new Date() });
  if (!result.ok) return data({ added: false, error: REFUSALS[result.reason] }, { status: STATUS[result.reason] });
  return data({ added: true, error: null });
}

// The link's token never leaves in a Referer ("same-origin": the form still posts with its Origin).
export const headers = () => ({ ...privatePageHeaders, "Referrer-Policy": "same-origin" });

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(siteFromMatches(matches), {
    title: TITLE,
    description: "Guarda en tu cuenta un pedido que hiciste sin iniciar sesión.",
    robots: "noindex,nofollow",
    path: `/dashboard/agregar-pedido/${params.orderId}`,
  });

export default function AddOrderToAccount({ loaderData, actionData, params }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const { token, orderNumber, alreadyInAccount, refusal } = loaderData;
  const error = actionData?.error ?? refusal;
  const added = actionData?.added || alreadyInAccount;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-slate-900">{TITLE}</h1>
      <AccountSection title={orderNumber ? `Pedido ${orderNumber}` : "Pedido"}>
        {error ? (
          <p role="alert" className="rounded-xl bg-red-50 p-3 text-red-800">
            {error}
          </p>
        ) : added ? (
          <div className="space-y-4">
            <p role="status" className="rounded-xl border border-brand-200 bg-brand-50 p-3 text-brand-900">
              Listo: el pedido {orderNumber} está en tu cuenta.
            </p>
            <Link to={`/dashboard/pedidos/${params.orderId}`} className="inline-block font-semibold text-brand-800 underline">
              Ver el pedido en Mis pedidos
            </Link>
          </div>
        ) : (
          <Form method="post" className="space-y-4">
            <input type="hidden" name="token" value={token} />
            <p className="text-slate-700">
              Hiciste el pedido <strong>{orderNumber}</strong> sin iniciar sesión, con el correo de tu cuenta. Agrégalo para verlo en tus pedidos, con su
              comprobante y sus entregas.
            </p>
            <button
              type="submit"
              disabled={busy}
              className="min-h-12 rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60"
            >
              Agregar este pedido a mi cuenta
            </button>
            <p className="text-sm text-slate-600">Si no reconoces este pedido, no lo agregues: nada cambia en tu cuenta.</p>
          </Form>
        )}
      </AccountSection>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = typeof (error as { data?: unknown })?.data === "string" ? String((error as { data: string }).data) : INVALID_LINK;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-slate-900">{TITLE}</h1>
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        {message}
      </p>
    </div>
  );
}
