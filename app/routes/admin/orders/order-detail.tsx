import { data, Form, Link } from "react-router";
import { useResetAfterSave } from "~/lib/use-reset-after-save";
import type { Route } from "./+types/order-detail";
import { deliveryPhotosOfOrder, DispatchRefusedError, rescheduleDeliveries, setOrderLocation } from "@server/deliveries/index.server";
import { OrderLocationForm, parseCoordinates } from "~/components/admin/order-location-form";
import { mapTiles } from "~/server/map-tiles.server";
import { OUTSIDE_LIMA } from "@core/geo";
import { addOrderNote, findStaffOrder, resendOrderConfirmation, StaffOrderNotFoundError } from "@server/orders/index.server";
import { AccountSection, FactList } from "~/components/account/account-page";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { StaffOrderHistory, StaffOrderNotes, StaffOrderPayments, StaffOrderDeliveries, StaffOrderRefunds } from "~/components/admin/staff-order-sections";
import { OrderLinesTable, OrderTotals } from "~/components/orders/order-lines";
import { OrderStatusBadge } from "~/components/orders/receipt-view";
import { dbContext } from "~/server/db-context.server";
import { formatDeliveryDate, pausedDeliveryStaffNote } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaInstant, isIsoDate } from "@core/lima-dates";
import { orderTypeLabels } from "@core/order-labels";
import { freeText, isUuid } from "@core/input-schemas";
import { z } from "@core/zod";
import { readFormData } from "~/server/request-body.server";
import { siteInfo } from "~/server/site-info.server";
import { allowStaff, staffActor, staffContext } from "~/server/staff.server";
import { listOrderWhatsappMessages, whatsappEnabled } from "@server/whatsapp/index.server";
import { StaffWhatsappMessages } from "~/components/admin/whatsapp-messages";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("pedidos.gestionar")];

const NOT_FOUND = "Pedido no encontrado";

/** What the cancel and refund pages report when they send staff back here (`?aviso=`, app/routes/admin/orders/staff-refunds.server.ts). */
const NOTICES: Record<string, { ok: boolean; message: string }> = {
  cancelado: { ok: true, message: "Pedido cancelado. Le avisamos al cliente por correo." },
  "cancelado-reembolsado": { ok: true, message: "Pedido cancelado y reembolsado. Le avisamos al cliente por correo." },
  "cancelado-reembolso-manual": {
    ok: true,
    message: "Pedido cancelado. El reembolso se hace a mano: márcalo como devuelto en «Reembolsar» cuando entregues el dinero.",
  },
  "cancelado-reembolso-en-proceso": { ok: true, message: "Pedido cancelado. El reembolso está en proceso con el medio de pago; se completará solo." },
  "cancelado-reembolso-fallido": { ok: false, message: "Pedido cancelado, pero el medio de pago rechazó el reembolso. Revísalo en «Reembolsar»." },
  "reembolso-hecho": { ok: true, message: "Reembolso hecho. Le avisamos al cliente por correo." },
  "reembolso-manual": { ok: true, message: "Reembolso registrado para hacerse a mano: márcalo como devuelto cuando entregues el dinero." },
  "reembolso-en-proceso": { ok: true, message: "Reembolso en proceso con el medio de pago; se completará solo." },
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const order = await findStaffOrder(context.get(dbContext), params.orderId);
  if (!order) throw data(NOT_FOUND, { status: 404 });
  const notice = NOTICES[new URL(request.url).searchParams.get("aviso") ?? ""] ?? null;
  // Issue 25: the order's WhatsApp messages and their states (none without WhatsApp).
  const whatsapp = (await listOrderWhatsappMessages(context.get(dbContext), order.id)).map((message) => ({
    ...message,
    createdAt: message.createdAt.toISOString(),
    lastChangeAt: message.lastChangeAt.toISOString(),
  }));
  // Issue 40: the photos of the bidones at the door, inline (a few dozen KB each; never a public address).
  const photos = (await deliveryPhotosOfOrder(context.get(dbContext), order.id)).map((photo) => ({
    deliveryId: photo.deliveryId,
    takenAt: photo.takenAt.toISOString(),
    src: `data:image/webp;base64,${photo.bytes.toString("base64")}`,
  }));
  // A fresh key per page load: the same form sent twice (double click, retry) acts once.
  return { order, photos, notice, noteKey: crypto.randomUUID(), resendKey: crypto.randomUUID(), whatsapp, whatsappOn: whatsappEnabled(), tiles: mapTiles() };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `Pedido ${loaderData.order.orderNumber}` : NOT_FOUND} · Back office` },
  { name: "robots", content: "noindex,nofollow" },
];

const noteSchema = z.object({
  body: freeText(2000)
    .transform((text) => text.trim())
    .pipe(z.string().min(1, "Escribe la nota.")),
  requestKey: z.string().refine(isUuid, "Recarga la página e inténtalo de nuevo."),
});

const resendSchema = z.object({ requestKey: z.string().refine(isUuid, "Recarga la página e inténtalo de nuevo.") });

const rescheduleSchema = z.object({
  deliveryId: z.string().refine(isUuid, "Recarga la página e inténtalo de nuevo."),
  nuevaFecha: z.string("Elige la nueva fecha.").refine(isIsoDate, "Elige la nueva fecha."),
  nuevoHorario: z.enum(["manana", "tarde"], "Elige un horario de entrega."),
});

type ActionResult =
  | { intent: "note"; ok: boolean; message: string; values?: { body: string } }
  | { intent: "resend"; ok: boolean; message: string }
  | { intent: "location"; ok: boolean; message: string; typed?: string }
  | { intent: "reschedule"; ok: boolean; message: string; deliveryId?: string; values?: { nuevaFecha: string; nuevoHorario: string } };

/** Every answer of the action has the same shape, so the page reads one type. */
function answer(result: ActionResult, status = 200) {
  return data(result, { status });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const form = await readFormData(request);
  const intent = form.get("intent");
  const actor = staffActor(context, request);
  const now = new Date();
  try {
    if (intent === "note") {
      const body = String(form.get("body") ?? "");
      const parsed = noteSchema.safeParse({ body, requestKey: form.get("requestKey") ?? "" });
      if (!parsed.success) return answer({ intent, ok: false, message: parsed.error.issues[0]!.message, values: { body } }, 400);
      await addOrderNote(db, {
        orderId: params.orderId,
        body: parsed.data.body,
        requestKey: parsed.data.requestKey,
        author: { ...actor, name: context.get(staffContext).fullName },
        now,
      });
      return answer({ intent, ok: true, message: "Nota agregada." });
    }
    if (intent === "resend") {
      const parsed = resendSchema.safeParse({ requestKey: form.get("requestKey") ?? "" });
      if (!parsed.success) return answer({ intent, ok: false, message: parsed.error.issues[0]!.message }, 400);
      const result = await resendOrderConfirmation(db, {
        orderId: params.orderId,
        requestKey: parsed.data.requestKey,
        actor,
        siteUrl: (await siteInfo(db)).siteUrl,
        now,
      });
      if (result.status === "sent" || result.status === "already_sent")
        return answer({ intent, ok: true, message: `Reenviamos la confirmación a ${result.to}.` });
      if (result.status === "too_soon") return answer({ intent, ok: false, message: "La confirmación ya se reenvió hace menos de un minuto." }, 400);
      return answer({ intent, ok: false, message: "Este pedido aún no tiene confirmación: se envía cuando el pago se aprueba." }, 400);
    }
    if (intent === "location") {
      // Issue 26: staff set, correct or clear the order's pin; its open deliveries and their routes follow.
      const typed = String(form.get("coordenadas") ?? "").slice(0, 80);
      const point = typed.trim() === "" ? null : parseCoordinates(typed);
      if (typed.trim() !== "" && !point)
        return answer({ intent, ok: false, message: `${OUTSIDE_LIMA}: escribe latitud y longitud, p. ej. -12.1211, -77.0297.`, typed }, 400);
      const saved = await setOrderLocation(db, actor, { orderId: params.orderId, point, now });
      if (saved === "not_found") throw data(NOT_FOUND, { status: 404 });
      const message =
        saved === "unchanged"
          ? "La ubicación ya estaba así."
          : point
            ? "Ubicación guardada; las rutas del día se recalcularon."
            : "Ubicación quitada: se usará el centro del distrito.";
      return answer({ intent, ok: true, message });
    }
    if (intent === "reschedule") {
      const values = { nuevaFecha: String(form.get("nuevaFecha") ?? ""), nuevoHorario: String(form.get("nuevoHorario") ?? "") };
      const parsed = rescheduleSchema.safeParse({ deliveryId: form.get("deliveryId") ?? "", ...values });
      const deliveryId = typeof form.get("deliveryId") === "string" ? String(form.get("deliveryId")) : undefined;
      if (!parsed.success) return answer({ intent, ok: false, message: parsed.error.issues[0]!.message, deliveryId, values }, 400);
      // Only a delivery of this order: the page acts on what it shows (issue 10, "reschedule a delivery").
      const order = isUuid(params.orderId) ? await findStaffOrder(db, params.orderId) : null;
      if (!order) throw data(NOT_FOUND, { status: 404 });
      if (!order.deliveries.some((delivery) => delivery.id === parsed.data.deliveryId)) throw data(NOT_FOUND, { status: 404 });
      try {
        const result = await rescheduleDeliveries(db, actor, {
          ids: [parsed.data.deliveryId],
          date: parsed.data.nuevaFecha,
          deliveryWindow: parsed.data.nuevoHorario,
          now,
          siteUrl: (await siteInfo(db)).siteUrl,
        });
        const message =
          result.changed > 0
            ? "Envío reprogramado. Le enviamos un correo al cliente con la nueva fecha."
            : "El envío ya estaba programado para esa fecha y horario.";
        return answer({ intent, ok: true, message, deliveryId });
      } catch (error) {
        if (error instanceof DispatchRefusedError) return answer({ intent, ok: false, message: error.message, deliveryId, values }, 400);
        throw error;
      }
    }
  } catch (error) {
    if (error instanceof StaffOrderNotFoundError) throw data(NOT_FOUND, { status: 404 });
    throw error;
  }
  return answer({ intent: "resend", ok: false, message: "Acción no reconocida." }, 400);
}

function Message({ result }: { result: { ok: boolean; message: string } }) {
  return (
    <p
      role={result.ok ? "status" : "alert"}
      className={`rounded-xl border px-4 py-3 text-sm ${result.ok ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-red-200 bg-red-50 text-red-800"}`}
    >
      {result.message}
    </p>
  );
}

const actionLink = "rounded-lg border px-4 py-2 text-sm font-semibold";

/** Issue 10, Orders: one order as staff need it, with the actions its status allows. */
export default function AdminOrderDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { order, noteKey, resendKey } = loaderData;
  const result: ActionResult | undefined = actionData;
  const { customer, shipping } = order;
  const { formRef: noteFormRef, onSubmit: onNoteFormSubmit } = useResetAfterSave(result?.intent === "note" && !result.ok);
  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/pedidos" className="text-sm font-semibold text-brand-800 underline">
          Volver a pedidos
        </Link>
      </p>
      <AdminPageHeader title={`Pedido ${order.orderNumber}`}>
        <OrderStatusBadge status={order.status} />
      </AdminPageHeader>
      {loaderData.notice && <Message result={loaderData.notice} />}
      <p className="-mt-4 text-sm text-slate-600">
        {formatLimaInstant(order.createdAt)} · {order.plan ?? orderTypeLabels[order.orderType] ?? order.orderType}
      </p>

      {(order.actions.cancel || order.actions.refund || order.actions.resendConfirmation) && (
        <section aria-labelledby="acciones" className="space-y-3">
          <h2 id="acciones" className="sr-only">
            Acciones
          </h2>
          <div className="flex flex-wrap gap-3">
            {order.actions.cancel && (
              <Link to={`/admin/pedidos/${order.id}/cancelar`} className={`${actionLink} border-red-300 text-red-800 hover:bg-red-50`}>
                Cancelar pedido
              </Link>
            )}
            {order.actions.refund && (
              <Link to={`/admin/pedidos/${order.id}/reembolsar`} className={`${actionLink} border-brand-700 text-brand-800 hover:bg-brand-50`}>
                Reembolsar
              </Link>
            )}
            {order.actions.resendConfirmation && (
              <Form method="post">
                <input type="hidden" name="intent" value="resend" />
                <input type="hidden" name="requestKey" value={resendKey} />
                <button type="submit" className={`${actionLink} border-brand-700 bg-brand-700 text-white hover:bg-brand-800`}>
                  Reenviar confirmación
                </button>
              </Form>
            )}
          </div>
          {result?.intent === "resend" && <Message result={result} />}
        </section>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <AccountSection title="Productos">
          <OrderLinesTable lines={order.items} />
          <OrderTotals totals={order} />
        </AccountSection>
        <AccountSection title="Cliente">
          <FactList
            testId="staff-order-customer"
            facts={[
              ["Nombre", `${customer.firstName} ${customer.lastName}`],
              ["E-mail", <span className="break-all">{customer.email}</span>],
              ["Teléfono", customer.phone],
              ["Documento", `${customer.documentType.toUpperCase()} ${customer.documentNumber}`],
              ...(customer.ruc ? ([["RUC", `${customer.ruc}${customer.businessName ? ` · ${customer.businessName}` : ""}`]] as [string, string][]) : []),
              ["Cuenta", customer.hasAccount ? "Cliente registrado" : "Invitado"],
            ]}
          />
        </AccountSection>
        <AccountSection title="Entrega">
          <FactList
            facts={[
              ["Dirección", `${shipping.address}, ${shipping.districtName}`],
              [
                "Fecha",
                shipping.deliveryDate === null ? (
                  <span data-testid="staff-order-delivery-paused">{pausedDeliveryStaffNote(shipping.deliveryPausedUntil)}</span>
                ) : (
                  <span className="inline-block first-letter:uppercase">{formatDeliveryDate(shipping.deliveryDate)}</span>
                ),
              ],
              ["Horario", deliveryWindowLabel(shipping.deliveryWindow)],
              ...(shipping.requestedDeliveryDate
                ? ([["Fecha pedida", <span className="inline-block first-letter:uppercase">{formatDeliveryDate(shipping.requestedDeliveryDate)}</span>]] as [
                    string,
                    React.ReactNode,
                  ][])
                : []),
              ...(shipping.notes ? ([["Indicaciones", shipping.notes]] as [string, string][]) : []),
            ]}
          />
          <OrderLocationForm
            key={`${shipping.point?.lat ?? ""},${shipping.point?.lng ?? ""}`}
            point={shipping.point}
            districtCenter={shipping.districtCenter}
            addressText={`${shipping.address}, ${shipping.districtName}`}
            tiles={loaderData.tiles}
            typed={result?.intent === "location" && !result.ok ? result.typed : undefined}
            result={result?.intent === "location" ? result : undefined}
          />
          <h3 className="mt-4 text-sm font-bold text-slate-900">Envíos</h3>
          <StaffOrderDeliveries deliveries={order.deliveries} result={result?.intent === "reschedule" ? result : undefined} />
          {loaderData.photos.map((photo) => (
            <figure key={photo.deliveryId} className="mt-4" data-testid="staff-delivery-photo">
              <img src={photo.src} alt="Foto de los bidones en la puerta" className="max-h-80 w-auto max-w-full rounded-xl ring-1 ring-slate-200" />
              <figcaption className="mt-1 text-sm text-slate-700">Foto de la entrega, {formatLimaInstant(photo.takenAt)}</figcaption>
            </figure>
          ))}
        </AccountSection>
        <AccountSection title="Pagos">
          <StaffOrderPayments payments={order.payments} />
          <h3 className="mt-4 text-sm font-bold text-slate-900">Comprobante</h3>
          {/* The invoice PDF route is the customer's own (/dashboard/facturas/…), so staff see the number only. */}
          <p className="text-sm text-slate-900" data-testid="staff-order-invoice">
            {order.invoice ? order.invoice.invoiceNumber : "Sin comprobante (se emite al aprobarse el pago)."}
          </p>
          <h3 className="mt-4 text-sm font-bold text-slate-900">Reembolsos</h3>
          <StaffOrderRefunds orderId={order.id} refunds={order.refunds} />
        </AccountSection>
        <AccountSection title="Historial">
          <StaffOrderHistory timeline={order.timeline} />
        </AccountSection>
        {(loaderData.whatsappOn || loaderData.whatsapp.length > 0) && (
          <AccountSection title="WhatsApp">
            <StaffWhatsappMessages messages={loaderData.whatsapp} />
          </AccountSection>
        )}
        <AccountSection title="Notas internas">
          <StaffOrderNotes notes={order.notes} />
          <Form ref={noteFormRef} onSubmit={onNoteFormSubmit} method="post" className="mt-4 space-y-2">
            <input type="hidden" name="intent" value="note" />
            <input type="hidden" name="requestKey" value={noteKey} />
            <label htmlFor="nota" className="block text-sm font-semibold text-slate-700">
              Nueva nota
            </label>
            <textarea
              id="nota"
              name="body"
              rows={3}
              maxLength={2000}
              required
              defaultValue={result?.intent === "note" && !result.ok ? result.values?.body : ""}
              className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
            {result?.intent === "note" && <Message result={result} />}
            <button type="submit" className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
              Agregar nota
            </button>
          </Form>
        </AccountSection>
      </div>
    </div>
  );
}
