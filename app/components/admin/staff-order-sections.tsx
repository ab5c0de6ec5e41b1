import { Form } from "react-router";
import type { StaffOrderDetail, StaffOrderNote } from "@server/orders/index.server";
import { DeliveryStatusBadge } from "~/components/deliveries/delivery-status";
import { formatDeliveryDate } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { orderStatusLabel, paymentMethodLabels, paymentStatusLabels } from "@core/order-labels";

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

const REFUND_REASON_LABELS: Record<string, string> = {
  late_payment: "Pago tardío",
  duplicate_charge: "Cobro duplicado",
  amount_mismatch: "Monto distinto",
};

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
            {payment.provider} · {payment.method ? (paymentMethodLabels[payment.method] ?? payment.method) : "Medio por definir"}
          </p>
          {payment.providerReference && (
            <p className="break-all text-slate-600">
              Referencia: <span className="font-mono">{payment.providerReference}</span>
            </p>
          )}
          {payment.paymentCode && (
            <p className="text-slate-600">
              Código de pago: <span className="font-mono">{payment.paymentCode}</span>
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

export function StaffOrderRefunds({ refunds }: { refunds: StaffOrderDetail["refunds"] }) {
  if (refunds.length === 0) return empty("Sin reembolsos.");
  return (
    <ul className="space-y-2 text-sm" data-testid="staff-order-refunds">
      {refunds.map((refund, index) => (
        <li key={index}>
          <span className="font-semibold text-slate-900">{formatSoles(refund.amountCents)}</span> · {REFUND_REASON_LABELS[refund.reason] ?? refund.reason} ·{" "}
          {refund.status === "succeeded"
            ? `Devuelto ${refund.refundedAt ? formatLimaInstant(refund.refundedAt) : ""}`
            : refund.status === "pending"
              ? "Pendiente"
              : refund.status}
          {refund.providerRefundId && <span className="block break-all text-slate-600 font-mono">{refund.providerRefundId}</span>}
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
