import { useEffect, useState } from "react";
import { data, redirect } from "react-router";
import type { Route } from "./+types/reparto";
import { DELIVERY_PHOTO_REQUIRED, deliveryPhotoMissing, listDriverRoute, loadRouteSettings } from "@server/deliveries/index.server";
import { getSiteSettings } from "@server/content/index.server";
import { confirmDriverStop } from "@server/order-flows/index.server";
import { driverCashToHandOver } from "@server/payments/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DriverAppBanner } from "~/components/admin/driver-app-banner";
import { DriverDayMap } from "~/components/admin/driver-day-map";
import { DriverStopCard, RefusedTap, type StopFormFeedback } from "~/components/admin/driver-stop-card";
import { dbContext } from "~/server/db-context.server";
import { confirmationFromForm, driverRefusalMessage } from "~/routes/admin/reparto/driver-stop-answers.server";
import { handoverBalance, handoverBalanceLabel } from "@core/cash-box";
import { fieldErrors } from "@core/checkout-schema";
import { driverStopSchema } from "~/lib/driver-stop-schema";
import { savedRoute } from "~/lib/driver-app/store";
import { collectedOnPhone, DONE_STATUSES, stopOnPhone } from "~/lib/driver-app/stop-on-phone";
import { DRIVER_STOP_NOTICES as NOTICES, useDriverApp } from "~/lib/driver-app/use-driver-app";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { mapTiles } from "~/server/map-tiles.server";
import { readFormData } from "~/server/request-body.server";
import { siteInfo } from "~/server/site-info.server";
import { allowStaffPage, staffActor, staffContext, staffNotFound } from "~/server/staff.server";

/**
 * Issue 10, the driver's phone: today's stops of the signed-in repartidor. An admin may open it
 * too and sees their own route (usually empty): acting on another driver's stop is refused to
 * everyone, so the page never lets one person confirm for another. Staff follow drivers' routes
 * in Despacho.
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/reparto")];

/** On a phone's mobile data (decision 0086): the frame's links ask for their routes only when followed. */
export const handle = { discoverLinks: "none" };

/**
 * What the service worker looks for before it keeps a copy of this page (build/client/reparto-sw.js,
 * decision 0079): a repartidor's own route. Anyone else's answer makes it forget what it kept.
 */
const DRIVER_APP_HEADER = "X-Driver-App";

export async function loader({ request, context }: Route.LoaderArgs) {
  const member = context.get(staffContext);
  const now = new Date();
  const db = context.get(dbContext);
  const [stops, cash, settings, routeSettings] = await Promise.all([
    listDriverRoute(db, member.id, now),
    // Decision 0060: the signed-in driver's own cash only, by their identity, never by a parameter.
    driverCashToHandOver(db, { id: member.id, email: member.email }, now),
    getSiteSettings(db),
    loadRouteSettings(db),
  ]);
  const notice = new URL(request.url).searchParams.get("aviso");
  // Only a repartidor's phone installs the app and keeps the route (issue 26); an admin's visit does not.
  const installable = member.role === "repartidor";
  return data(
    {
      today: limaToday(now),
      loadedAt: now.toISOString(),
      driverId: member.id,
      installable,
      stops,
      cash,
      // Issue 38: the shop's own Yape/Plin the customer pays to at the door, never a driver's.
      shopYape: settings.doorYapeNumber ? { number: settings.doorYapeNumber } : null,
      notice: notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null,
      savedOnPhone: false,
      // The map of the day (issue 40): where the van starts, and the tiles' address.
      depot: { label: routeSettings.depotLabel, lat: routeSettings.depotLat, lng: routeSettings.depotLng },
      tiles: mapTiles(),
    },
    { headers: installable ? { [DRIVER_APP_HEADER]: "repartidor" } : {} },
  );
}

export function headers({ parentHeaders, loaderHeaders }: Route.HeadersArgs) {
  const headers = new Headers(parentHeaders);
  const marker = loaderHeaders.get(DRIVER_APP_HEADER);
  if (marker) headers.set(DRIVER_APP_HEADER, marker);
  return headers;
}

type RouteData = Awaited<ReturnType<typeof loader>>["data"];

/**
 * Without signal the route comes from the phone (issue 26): the last one the server sent today,
 * kept in IndexedDB by the page. With signal, the server's answer as always.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs): Promise<RouteData> {
  try {
    return await serverLoader();
  } catch (error) {
    // A 4xx/5xx reached the server and is the server's to show; only no answer at all falls back.
    if (!(error instanceof TypeError)) throw error;
    const saved = await savedOnPhone();
    if (!saved) throw error;
    return saved;
  }
}

async function savedOnPhone(): Promise<RouteData | null> {
  const route = await savedRoute<RouteData>(lastDriverId ?? "", limaToday(new Date())).catch(() => null);
  return route ? { ...route.data, notice: null, savedOnPhone: true } : null;
}

/** The driver this page last showed: a route kept on the phone is only ever shown to its own driver. */
let lastDriverId: string | null = null;

/**
 * The freshest of the server's route and the one kept on the phone: a page opened without signal
 * is the copy the service worker kept when it was last loaded, which can be older than what the
 * page saved since.
 */
function useFreshestRoute(served: RouteData): RouteData {
  const [kept, setKept] = useState<RouteData | null>(null);
  useEffect(() => {
    lastDriverId = served.driverId;
  }, [served.driverId]);
  useEffect(() => {
    if (!served.installable) return;
    void savedRoute<RouteData>(served.driverId, served.today)
      .then((route) => setKept(route && route.loadedAt > served.loadedAt ? { ...route.data, notice: null, savedOnPhone: true } : null))
      .catch(() => undefined);
  }, [served.installable, served.driverId, served.today, served.loadedAt]);
  return kept && kept.loadedAt > served.loadedAt ? kept : served;
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: "Reparto · Back office" },
  { name: "robots", content: "noindex,nofollow" },
  // Installable on Android and iPhone, for the repartidor only (issue 26, decision 0079).
  ...(loaderData?.installable
    ? [
        { tagName: "link", rel: "manifest", href: "/reparto.webmanifest" },
        { tagName: "link", rel: "apple-touch-icon", href: "/icons/reparto-180.png" },
        { name: "apple-mobile-web-app-capable", content: "yes" },
        { name: "mobile-web-app-capable", content: "yes" },
        { name: "apple-mobile-web-app-title", content: "Reparto" },
        { name: "apple-mobile-web-app-status-bar-style", content: "default" },
      ]
    : []),
];

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  const intent = typeof form.intent === "string" ? form.intent : "";
  const deliveryId = typeof form.deliveryId === "string" ? form.deliveryId : "";
  if (!["en_camino", "entregado", "no_entregado"].includes(intent))
    return data<StopFormFeedback>({ deliveryId, intent, formError: "Acción no válida", fieldErrors: {}, values: {} }, { status: 400 });
  const parsed = driverStopSchema.safeParse(form);
  const values = Object.fromEntries(Object.entries(form).filter(([, value]) => typeof value === "string")) as Record<string, string>;
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    if (errors.deliveryId) staffNotFound();
    return data<StopFormFeedback>({ deliveryId, intent, formError: null, fieldErrors: errors, values }, { status: 400 });
  }
  const input = parsed.data;
  const confirmation = confirmationFromForm(input);
  const db = context.get(dbContext);
  // Issue 40: the setting that asks for the photo of the bidones (sent by the app before this tap).
  if (input.intent === "entregado" && (await deliveryPhotoMissing(db, context.get(staffContext).id, input.deliveryId)))
    return data<StopFormFeedback>({ deliveryId, intent, formError: DELIVERY_PHOTO_REQUIRED, fieldErrors: {}, values }, { status: 400 });
  const site = await siteInfo(db, request);
  const result = await confirmDriverStop(db, {
    deliveryId: input.deliveryId,
    driver: staffActor(context, request),
    confirmation,
    now: new Date(),
    siteUrl: site.siteUrl,
  });
  if (!result.ok && result.reason === "not_found") staffNotFound();
  if (!result.ok && result.reason === "collection_required") {
    const formError = driverRefusalMessage(result);
    return data<StopFormFeedback>({ deliveryId, intent, formError, fieldErrors: { collected: "Elige cómo cobraste" }, values }, { status: 400 });
  }
  if (!result.ok && result.reason === "already_paid") {
    const formError = driverRefusalMessage(result);
    return data<StopFormFeedback>({ deliveryId, intent, formError, fieldErrors: {}, values: { ...values, collected: "" } }, { status: 400 });
  }
  if (!result.ok) {
    return data<StopFormFeedback>({ deliveryId, intent, formError: driverRefusalMessage(result), fieldErrors: {}, values }, { status: 409 });
  }
  // A repeated tap lands on the same answer as the first: the stop is where the driver put it.
  return redirect(`/admin/reparto?aviso=${input.intent}#parada-${input.deliveryId}`);
}

export default function DriverRoute({ loaderData, actionData }: Route.ComponentProps) {
  const route = useFreshestRoute(loaderData);
  const { stops, today, cash } = route;
  const app = useDriverApp({ driverId: route.driverId, installable: route.installable, route });
  const notice = app.notice ?? route.notice;
  const tapsOf = (deliveryId: string) => app.taps.filter((tap) => tap.deliveryId === deliveryId);
  const onRoute = new Set(stops.map((stop) => stop.id));
  // A refusal for a stop no longer on the route (moved to another driver, cancelled) still shows, under its own name.
  const orphans = app.taps.filter((tap) => tap.state === "refused" && !onRoute.has(tap.deliveryId));
  const pendingTaps = app.taps.filter((tap) => tap.state === "pending").length;
  // Issue 40: every stop as the phone knows it (the server's word and the taps not yet sent), so
  // the counters, the money and the order of the list move the moment the driver taps.
  const numbered = stops.map((stop, index) => ({ stop, number: index + 1, onPhone: stopOnPhone(stop, tapsOf(stop.id)) }));
  const done = numbered.filter((entry) => DONE_STATUSES.includes(entry.onPhone.status));
  const ahead = numbered.filter((entry) => !DONE_STATUSES.includes(entry.onPhone.status));
  // The first stop not done, in route order (the order the customer's "Faltan N paradas" counts in).
  const next = ahead[0];
  const later = ahead.filter((entry) => entry !== next);
  const unsentMoney = collectedOnPhone(numbered.map((entry) => entry.onPhone));
  const cashCents = cash.cashCents + unsentMoney.cashCents;
  const yapeCents = cash.yapeCents + unsentMoney.yapeCents;
  const card = ({ stop, number }: (typeof numbered)[number]) => (
    <DriverStopCard
      key={stop.id}
      stop={stop}
      number={number}
      shopYape={route.shopYape ?? null}
      feedback={actionData && actionData.deliveryId === stop.id ? actionData : null}
      app={
        route.installable
          ? {
              taps: tapsOf(stop.id),
              offline: app.connection !== "online",
              dismiss: app.dismiss,
              addPhoto: (photo) => app.addPhoto(stop.id, photo),
              record: (intent, fields) => app.record({ deliveryId: stop.id, intent, fields, stopLabel: `${number}. ${stop.address}` }),
            }
          : undefined
      }
    />
  );
  return (
    <div className="mx-auto max-w-2xl">
      <AdminPageHeader title="Mi ruta de hoy" />
      <p className="-mt-4 mb-4 text-slate-700 first-letter:uppercase" data-testid="route-counters">
        {formatLimaDate(today, { weekday: "long", day: "numeric", month: "long" })} · {stops.length === 1 ? "1 parada" : `${stops.length} paradas`},{" "}
        {ahead.length} por atender
        {done.length > 0 && `, ${done.length === 1 ? "1 hecha" : `${done.length} hechas`}`}
      </p>
      {route.installable && <DriverAppBanner connection={app.connection} pending={pendingTaps} loadedAt={route.loadedAt} />}
      <div className="mb-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
        <p className="font-semibold text-slate-900" data-testid="cash-to-hand-over">
          Efectivo por rendir hoy: {formatSoles(cashCents)}
        </p>
        {unsentMoney.cashCents + unsentMoney.yapeCents > 0 && (
          <p className="text-sm font-semibold text-amber-900" data-testid="cash-unsent">
            Incluye {formatSoles(unsentMoney.cashCents + unsentMoney.yapeCents)} cobrados por enviar
          </p>
        )}
        {yapeCents > 0 && <p className="text-sm text-slate-700">Cobrado por Yape: {formatSoles(yapeCents)} (no se entrega en efectivo)</p>}
        {cash.handover && (
          <p className="text-sm text-slate-700" data-testid="cash-handover">
            Rendición registrada: {formatSoles(cash.handover.countedCents)} · {handoverBalanceLabel(handoverBalance(cash.handover.countedCents, cashCents))}
          </p>
        )}
      </div>
      {notice && (
        <p role="status" className="mb-4 rounded-xl bg-green-50 p-4 font-semibold text-green-900">
          {notice}
        </p>
      )}
      <DriverDayMap stops={ahead.map(({ stop, number }) => ({ number, address: stop.address, pin: stop.pin }))} depot={route.depot} tiles={route.tiles} />
      {orphans.map((tap) => (
        <div key={tap.key} className="mb-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="refused-stop">
          <h2 className="text-lg font-bold text-slate-900">{tap.stopLabel}</h2>
          <RefusedTap tap={tap} onDismiss={app.dismiss} />
        </div>
      ))}
      {stops.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">No tienes paradas asignadas para hoy.</p>
      ) : (
        <>
          {next ? (
            <section aria-labelledby="siguiente-parada" className="mb-6" data-testid="next-stop">
              <h2 id="siguiente-parada" className="mb-2 text-sm font-bold tracking-wide text-brand-900 uppercase">
                Siguiente parada
              </h2>
              <ol aria-label="Siguiente parada">{card(next)}</ol>
            </section>
          ) : (
            <p className="mb-6 rounded-2xl bg-green-50 p-4 font-semibold text-green-900" data-testid="route-finished">
              Terminaste las paradas de hoy.
            </p>
          )}
          {later.length > 0 && (
            <section aria-labelledby="despues" className="mb-6">
              <h2 id="despues" className="mb-2 text-sm font-bold tracking-wide text-slate-700 uppercase">
                Después ({later.length})
              </h2>
              <ol className="space-y-4" aria-label="Paradas por atender">
                {later.map(card)}
              </ol>
            </section>
          )}
          {done.length > 0 && (
            <details open className="mb-6" data-testid="done-stops">
              <summary className="min-h-12 cursor-pointer rounded-xl bg-white px-4 py-3 text-base font-semibold text-slate-900 ring-1 ring-slate-200">
                Hechas ({done.length})
              </summary>
              <ol className="mt-3 space-y-3" aria-label="Paradas hechas">
                {done.map(card)}
              </ol>
            </details>
          )}
        </>
      )}
    </div>
  );
}
