import { data, redirect } from "react-router";
import type { Route } from "./+types/admin.reparto";
import { confirmDriverStop, listDriverStops, type DriverConfirmation } from "@server/deliveries/index.server";
import { driverCashToHandOver } from "@server/payments/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { AdminPageHeader } from "~/components/admin/admin-shell";
import { DriverStopCard, type StopFormFeedback } from "~/components/admin/driver-stop-card";
import { dbContext } from "~/db-context.server";
import { deliveryStatusLabel } from "@core/delivery-labels";
import { handoverBalance, handoverBalanceLabel } from "@core/cash-box";
import { fieldErrors } from "@core/checkout-schema";
import { driverStopSchema } from "~/lib/driver-stop-schema";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { readFormData } from "~/request-body.server";
import { siteInfo } from "~/site-info.server";
import { allowRoles, staffActor, staffContext, staffNotFound } from "~/staff.server";

/**
 * Issue 10, the driver's phone: today's stops of the signed-in repartidor. An admin may open it
 * too and sees their own route (usually empty): acting on another driver's stop is refused to
 * everyone, so the page never lets one person confirm for another. Staff follow drivers' routes
 * in Despacho.
 */
export const middleware: Route.MiddlewareFunction[] = [allowRoles("repartidor")];

const NOTICES = {
  en_camino: "Parada marcada en camino. Avisamos al cliente.",
  entregado: "Entrega registrada. Avisamos al cliente.",
  no_entregado: "Registramos que no se pudo entregar. El cliente puede elegir una nueva fecha, u operaciones la coordinará.",
} as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const member = context.get(staffContext);
  const now = new Date();
  const db = context.get(dbContext);
  const stops = await listDriverStops(db, member.id, now);
  // Decision 0060: the signed-in driver's own cash only, by their identity, never by a parameter.
  const cash = await driverCashToHandOver(db, { id: member.id, email: member.email }, now);
  const notice = new URL(request.url).searchParams.get("aviso");
  return { today: limaToday(now), stops, cash, notice: notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null };
}

export const meta: Route.MetaFunction = () => [{ title: "Reparto · Back office" }, { name: "robots", content: "noindex,nofollow" }];

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
  const confirmation: DriverConfirmation =
    input.intent === "en_camino"
      ? { kind: "on_the_way" }
      : input.intent === "entregado"
        ? {
            kind: "delivered",
            receiverName: input.receiverName,
            fullBidonesLeft: input.fullBidonesLeft,
            emptyBidonesCollected: input.emptyBidonesCollected,
            collected: input.collected,
          }
        : { kind: "failed", reason: input.reason, note: input.note };
  const db = context.get(dbContext);
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
    const formError = `Este pedido no está pagado: cobra ${formatSoles(result.amountCents)} y marca cómo cobraste, o marca «No se pudo entregar».`;
    return data<StopFormFeedback>({ deliveryId, intent, formError, fieldErrors: { collected: "Elige cómo cobraste" }, values }, { status: 400 });
  }
  if (!result.ok && result.reason === "already_paid") {
    const formError = "Este pedido ya está pagado: no cobres nada. Confirma la entrega sin cobro.";
    return data<StopFormFeedback>({ deliveryId, intent, formError, fieldErrors: {}, values: { ...values, collected: "" } }, { status: 400 });
  }
  if (!result.ok) {
    const formError = `Esta parada está «${deliveryStatusLabel(result.status)}» y no se puede marcar así.`;
    return data<StopFormFeedback>({ deliveryId, intent, formError, fieldErrors: {}, values }, { status: 409 });
  }
  // The customer's WhatsApp leaves now rather than at the next pass (issue 25).
  if (result.changed) runJobSoon("whatsapp");
  // A repeated tap lands on the same answer as the first: the stop is where the driver put it.
  return redirect(`/admin/reparto?aviso=${input.intent}#parada-${input.deliveryId}`);
}

export default function DriverRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { stops, today, notice, cash } = loaderData;
  const pending = stops.filter((stop) => stop.status !== "delivered" && stop.status !== "failed").length;
  return (
    <div className="mx-auto max-w-2xl">
      <AdminPageHeader title="Mi ruta de hoy" />
      <p className="-mt-4 mb-4 text-slate-700 first-letter:uppercase">
        {formatLimaDate(today, { weekday: "long", day: "numeric", month: "long" })} · {stops.length === 1 ? "1 parada" : `${stops.length} paradas`}, {pending}{" "}
        por atender
      </p>
      <div className="mb-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
        <p className="font-semibold text-slate-900" data-testid="cash-to-hand-over">
          Efectivo por rendir hoy: {formatSoles(cash.cashCents)}
        </p>
        {cash.yapeCents > 0 && <p className="text-sm text-slate-700">Cobrado por Yape: {formatSoles(cash.yapeCents)} (no se entrega en efectivo)</p>}
        {cash.handover && (
          <p className="text-sm text-slate-700" data-testid="cash-handover">
            Rendición registrada: {formatSoles(cash.handover.countedCents)} ·{" "}
            {handoverBalanceLabel(handoverBalance(cash.handover.countedCents, cash.cashCents))}
          </p>
        )}
      </div>
      {notice && (
        <p role="status" className="mb-4 rounded-xl bg-green-50 p-4 font-semibold text-green-900">
          {notice}
        </p>
      )}
      {stops.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">No tienes paradas asignadas para hoy.</p>
      ) : (
        <ol className="space-y-4" aria-label="Paradas de hoy">
          {stops.map((stop, index) => (
            <DriverStopCard key={stop.id} stop={stop} number={index + 1} feedback={actionData && actionData.deliveryId === stop.id ? actionData : null} />
          ))}
        </ol>
      )}
    </div>
  );
}
