import { data, Form, isRouteErrorResponse, Link, redirect, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/order-new-date";
import { failedDeliveryToRebook, rebookFailedDelivery } from "@server/deliveries/index.server";
import { receiptToken } from "@server/orders/index.server";
import { FormAlert } from "~/components/account/auth-shell";
import { dbContext } from "~/server/db-context.server";
import { isOrderOwner } from "~/server/order-cookie.server";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { readFormData } from "~/server/request-body.server";
import { siteInfo } from "~/server/site-info.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate, isIsoDate } from "@core/lima-dates";
import { isUuid } from "@core/input-schemas";

/**
 * Issue 25: "No se pudo entregar" → the customer picks the new date from the link in the e-mail
 * and the WhatsApp message (`?token=`, the receipt's signed link) or from the browser that placed
 * the order. Anyone else gets the 404 the receipt gives an unknown order. Works without JavaScript.
 */
const NOT_FOUND = "No encontramos ese pedido";
/** How many dates the page lists (the district's next days with room). */
const DATES_SHOWN = 10;

async function ownedOrder(request: Request, orderId: string) {
  if (!isUuid(orderId) || !(await isOrderOwner(request, orderId))) throw data(NOT_FOUND, { status: 404 });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await ownedOrder(request, params.orderId);
  const found = await failedDeliveryToRebook(context.get(dbContext), params.orderId, new Date());
  if (!found) throw data(NOT_FOUND, { status: 404 });
  if (found.state === "nothing_to_rebook") return { orderId: params.orderId, orderNumber: found.orderNumber, rebook: null };
  const { delivery, offered, orderNumber } = found.value;
  const options = offered
    .slice(0, DATES_SHOWN)
    .flatMap((day) =>
      day.windows.filter((window) => window.hasRoom).map((window) => ({ value: `${day.date}|${window.window}`, date: day.date, window: window.window })),
    );
  return { orderId: params.orderId, orderNumber, rebook: { delivery, options } };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  await ownedOrder(request, params.orderId);
  const form = await readFormData(request);
  const deliveryId = String(form.get("deliveryId") ?? "");
  const [date = "", deliveryWindow = ""] = String(form.get("slot") ?? "").split("|");
  if (!isUuid(deliveryId)) throw data(NOT_FOUND, { status: 404 });
  if (!isIsoDate(date) || !deliveryWindow) return data({ message: "Elige una fecha y un horario.", chosen: null }, { status: 400 });
  const db = context.get(dbContext);
  const site = await siteInfo(db, request);
  const result = await rebookFailedDelivery(db, { orderId: params.orderId, deliveryId, date, deliveryWindow, now: new Date(), siteUrl: site.siteUrl });
  if (!result.ok && result.reason === "not_found") throw data(NOT_FOUND, { status: 404 });
  if (!result.ok && result.reason === "unavailable") return data({ message: result.message, chosen: `${date}|${deliveryWindow}` }, { status: 409 });
  if (!result.ok) return data({ message: "Este envío ya tiene una nueva fecha: la ves en tu pedido.", chosen: null }, { status: 409 });
  const message = `Listo: te lo entregaremos el ${formatLimaDate(result.date)} (${deliveryWindowLabel(result.deliveryWindow)}). Te enviamos un correo con la nueva fecha.`;
  const to = new URLSearchParams({ token: receiptToken(params.orderId), message });
  return redirect(`/orden/${params.orderId}?${to.toString()}`);
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Elige una nueva fecha de entrega",
    description: "Reprograma tu entrega.",
    robots: "noindex,nofollow",
    path: "/orden",
  });

export default function OrderNewDate({ loaderData, actionData }: Route.ComponentProps) {
  const { rebook, orderNumber, orderId } = loaderData;
  const location = useLocation();
  const busy = useNavigation().state === "submitting";
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Elige una nueva fecha de entrega</h1>
      {!rebook ? (
        <div className="mt-6 space-y-4">
          <FormAlert tone="info">El pedido {orderNumber} no tiene entregas por reprogramar: ya tiene su fecha.</FormAlert>
          <Link to={`/orden/${orderId}${location.search}`} className="inline-block font-semibold text-brand-800 underline">
            Ver mi pedido
          </Link>
        </div>
      ) : (
        <Form method="post" action={`${location.pathname}${location.search}`} className="mt-6 space-y-5">
          <p className="text-slate-700">
            No pudimos entregar tu envío <strong>{rebook.delivery.deliveryNumber}</strong> del pedido <strong>{orderNumber}</strong> en{" "}
            {rebook.delivery.districtName} el {formatLimaDate(rebook.delivery.deliveryDate)}. Elige cuándo te lo llevamos:
          </p>
          {actionData?.message && <FormAlert>{actionData.message}</FormAlert>}
          <input type="hidden" name="deliveryId" value={rebook.delivery.id} />
          {rebook.options.length === 0 ? (
            <FormAlert tone="info">
              Por ahora no quedan fechas con cupo para tu distrito. Escríbenos desde <a href="/contact">Contacto</a> y coordinamos la entrega.
            </FormAlert>
          ) : (
            <fieldset className="space-y-2">
              <legend className="mb-2 font-semibold text-slate-900">Fecha y horario</legend>
              {rebook.options.map((option, index) => (
                <label
                  key={option.value}
                  className="flex min-w-0 items-start gap-3 rounded-xl bg-white p-3 ring-1 ring-slate-200 has-[:checked]:ring-2 has-[:checked]:ring-brand-600"
                >
                  <input
                    type="radio"
                    name="slot"
                    value={option.value}
                    required
                    defaultChecked={actionData?.chosen ? actionData.chosen === option.value : index === 0}
                    className="mt-1 accent-brand-700"
                  />
                  <span className="min-w-0 break-words">
                    <span className="font-semibold text-slate-900 first-letter:uppercase">{formatLimaDate(option.date)}</span>
                    <span className="block text-sm text-slate-700">{deliveryWindowLabel(option.window)}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          {rebook.options.length > 0 && (
            <button
              type="submit"
              disabled={busy}
              className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
            >
              {busy ? "Guardando…" : "Confirmar nueva fecha"}
            </button>
          )}
        </Form>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main id="contenido" className="mx-auto max-w-2xl px-4 py-12">
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        {notFound ? NOT_FOUND : "No pudimos cargar esta página. Intenta nuevamente en unos minutos."}
      </p>
    </main>
  );
}
