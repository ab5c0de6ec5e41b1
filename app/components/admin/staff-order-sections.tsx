import { Form } from "react-router";
import type { StaffOrderDetail, StaffOrderNote } from "@server/orders/index.server";
import { DeliveryStatusBadge } from "~/components/deliveries/delivery-status";
import { formatDeliveryDate } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { orderStatusLabel, paymentMeansLabel, paymentProviderLabels, paymentStatusLabels, refundReasonLabels, refundStatusLabels } from "@core/order-labels";

const empty = (text: string) => <p className="text-sm text-slate-600">{text}</p>;

/** Who moved an order, as staff read it: the shop's own actors by name, a staff member by e-mail. */
const ACTOR_LABELS: Record<string, string> = {
  customer: "Cliente",
  system: "Sistema",
  sandbox: "Pasarela de prueba",
  culqi: "Culqi",
  "culqi-webhook": "Culqi (webhook)",
};

export function actorLabel(actor: string): string {
  return ACTOR_LABELS[actor] ?? actor;
}

export function StaffOrderPayments({ payments }: { payments: StaffOrderDetail["payments"] }) {
  if (payments.length === 0) return empty("Sin intentos de pago.");
  return (
    <ul className="space-y-3 text-sm" data-testid="staff-order-payments">
      {payments.map((payment) => (
        <li key={payment.id} className="rounded-xl bg-slate-50 p-3">
          <p className="flex flex-wrap justify-between gap-2">
            <span className="font-semibold text-slate-900">
              {paymentStatusLabels[payment.status] ?? payment.status} · {formatSoles(payment.amountCents)}
            </span>
            <span className="text-slate-600">{formatLimaInstant(payment.createdAt)}</span>
          </p>
          <p className="text-slate-700">
            {paymentMeansLabel(payment.provider, payment.method)}
            {payment.provider !== "contra_entrega" && ` · ${paymentProviderLabels[payment.provider] ?? payment.provider}`}
          </p>
          {payment.providerReference && (
            <p className="break-all text-slate-600">
              Referencia: <span className="font-mono">{payment.providerReference}</span>
            </p>
          )}
          {payment.paymentCode && (
            <p className="text-slate-600">
              Código de pago: <span className="font-mono">{payment.paymentCode}</span>
              {payment.status === "pending" && payment.expiresAt && <> · vence el {formatLimaInstant(payment.expiresAt)}</>}
            </p>
          )}
          {payment.failureMessage && <p className="text-red-800">{payment.failureMessage}</p>}
        </li>
      ))}
    </ul>
  );
}

/** Statuses from which staff may still move a delivery to another date (decisions.md: any open state, or failed). */
const RESCHEDULABLE = new Set(["pending", "preparing", "scheduled", "rescheduled", "failed"]);

type RescheduleResult = { ok: boolean; message: string; deliveryId?: string; values?: { nuevaFecha: string; nuevoHorario: string } };

export function StaffOrderDeliveries({ deliveries, result }: { deliveries: StaffOrderDetail["deliveries"]; result?: RescheduleResult }) {
  if (deliveries.length === 0) return empty("Sin envíos.");
  return (
    <ul className="space-y-3 text-sm" data-testid="staff-order-deliveries">
      {deliveries.map((delivery) => {
        const own = result?.deliveryId === delivery.id ? result : undefined;
        return (
          <li key={delivery.id} className="space-y-2">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-semibold text-slate-900">{delivery.deliveryNumber}</span>
              <DeliveryStatusBadge status={delivery.status} />
              <span className="text-slate-700 first-letter:uppercase">
                {formatDeliveryDate(delivery.deliveryDate)}, {deliveryWindowLabel(delivery.deliveryWindow)}
              </span>
              <span className="text-slate-600">{delivery.driverName ? `Repartidor: ${delivery.driverName}` : "Sin repartidor asignado"}</span>
            </div>
            {RESCHEDULABLE.has(delivery.status) && (
              <Form method="post" className="flex flex-wrap items-end gap-2" aria-label={`Reprogramar ${delivery.deliveryNumber}`}>
                <input type="hidden" name="intent" value="reschedule" />
                <input type="hidden" name="deliveryId" value={delivery.id} />
                <label className="flex flex-col text-xs font-semibold text-slate-700">
                  Nueva fecha
                  <input
                    type="date"
                    name="nuevaFecha"
                    required
                    defaultValue={own?.ok ? "" : (own?.values?.nuevaFecha ?? "")}
                    className="mt-1 rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
                  />
                </label>
                <label className="flex flex-col text-xs font-semibold text-slate-700">
                  Horario
                  <select
                    name="nuevoHorario"
                    defaultValue={own?.values?.nuevoHorario ?? delivery.deliveryWindow}
                    className="mt-1 rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
                  >
                    <option value="manana">{deliveryWindowLabel("manana")}</option>
                    <option value="tarde">{deliveryWindowLabel("tarde")}</option>
                  </select>
                </label>
                <button type="submit" className="rounded-lg bg-slate-800 px-3 py-2 text-sm font-semibold text-white hover:bg-slate-900">
                  Reprogramar
                </button>
              </Form>
            )}
            {own && (
              <p role={own.ok ? "status" : "alert"} className={`rounded-lg px-3 py-2 ${own.ok ? "bg-emerald-50 text-emerald-900" : "bg-red-50 text-red-800"}`}>
                {own.message}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The order's refunds in words. A refund to hand back by transfer or cash (`manual`) carries the
 * refund page's own "Marcar … como devuelto" form (issue 41): it posts to that page's action, so the
 * rule, the roles and the audit are the same wherever staff press it.
 */
export function StaffOrderRefunds({ orderId, refunds }: { orderId: string; refunds: StaffOrderDetail["refunds"] }) {
  if (refunds.length === 0) return empty("Sin reembolsos.");
  return (
    <ul className="space-y-2 text-sm" data-testid="staff-order-refunds">
      {refunds.map((refund) => (
        <li key={refund.id}>
          <span className="font-semibold text-slate-900">{formatSoles(refund.amountCents)}</span> · {refundReasonLabels[refund.reason] ?? "Reembolso"} ·{" "}
          {refund.status === "succeeded"
            ? `Devuelto ${refund.refundedAt ? formatLimaInstant(refund.refundedAt) : ""}`
            : (refundStatusLabels[refund.status] ?? "En revisión")}
          {refund.providerRefundId && <span className="block font-mono break-all text-slate-600">{refund.providerRefundId}</span>}
          {refund.status === "manual" && (
            <Form method="post" action={`/admin/pedidos/${orderId}/reembolsar`} className="mt-2 rounded-xl bg-amber-50 p-3 ring-1 ring-amber-200">
              <p className="mb-2 text-amber-900">Devuelve {formatSoles(refund.amountCents)} al cliente por transferencia o en efectivo y luego márcalo aquí.</p>
              <input type="hidden" name="refundId" value={refund.id} />
              <button
                type="submit"
                name="intent"
                value="manual_done"
                className="rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
              >
                Marcar {formatSoles(refund.amountCents)} como devuelto
              </button>
            </Form>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The order's status changes, oldest first, each with when and who. */
export function StaffOrderHistory({ timeline }: { timeline: StaffOrderDetail["timeline"] }) {
  if (timeline.length === 0) return empty("Sin cambios registrados.");
  return (
    <ol className="space-y-3 border-l-2 border-brand-100 pl-4 text-sm" data-testid="staff-order-timeline">
      {timeline.map((change, index) => (
        <li key={index}>
          <p className="font-semibold text-slate-900">{orderStatusLabel(change.toStatus)}</p>
          <p className="text-slate-600">
            {formatLimaInstant(change.createdAt)} · <span className="break-all">{actorLabel(change.actor)}</span>
          </p>
          {change.note && <p className="text-slate-700">{change.note}</p>}
        </li>
      ))}
    </ol>
  );
}

export function StaffOrderNotes({ notes }: { notes: StaffOrderNote[] }) {
  if (notes.length === 0) return empty("Aún no hay notas.");
  return (
    <ul className="space-y-3 text-sm" data-testid="staff-order-notes">
      {notes.map((note) => (
        <li key={note.id} className="rounded-xl bg-amber-50 p-3">
          <p className="whitespace-pre-line break-words text-slate-900">{note.body}</p>
          <p className="mt-1 text-slate-600">
            {note.authorName} · <span className="break-all">{note.authorEmail}</span> · {formatLimaInstant(note.createdAt)}
          </p>
        </li>
      ))}
    </ul>
  );
}
