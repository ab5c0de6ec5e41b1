import { may } from "@core/staff-permissions";
import { randomUUID } from "node:crypto";
import { Form, Link } from "react-router";
import type { Route } from "./+types/refund-order";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { FactList, StaffFormError, staffInputClass, staffPrimaryButtonClass, ReasonField } from "~/components/admin/staff-form";
import { FieldError } from "~/components/ui/form-field";
import { formatSoles } from "@core/money";
import { orderStatusLabel, refundReasonLabels, refundStatusLabels } from "@core/order-labels";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffContext } from "~/server/staff.server";
import { notFound, orderIdParam, refundOrderAction } from "~/routes/admin/orders/staff-refunds.server";
import { orderRefundSummary } from "@server/payments/index.server";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("reembolsos.emitir")];

const channelLabels: Record<string, string> = {
  card: "Tarjeta (Culqi)",
  yape: "Yape (Culqi)",
  sandbox: "Simulación (sandbox)",
  manual: "Efectivo o código: devolución a mano",
};

export async function loader({ params, context }: Route.LoaderArgs) {
  const orderId = orderIdParam(params.orderId);
  const summary = await orderRefundSummary(context.get(dbContext), orderId);
  if (!summary) notFound();
  // A new key per page load: the same form posted twice (double click, retry) is one refund.
  return { summary, requestKey: randomUUID(), unlimited: may(context.get(staffContext).role, "reembolsos.sin-limite") };
}

export const action = ({ request, context, params }: Route.ActionArgs) => refundOrderAction(request, context, orderIdParam(params.orderId));

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Reembolsar pedido ${loaderData?.summary.orderNumber ?? ""} · Back office` },
  { name: "robots", content: "noindex,nofollow" },
];

export default function RefundOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, unlimited } = loaderData;
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const requestKey = values.requestKey || loaderData.requestKey;
  const manualRefunds = summary.refunds.filter((refund) => refund.status === "manual");
  return (
    <div className="max-w-2xl">
      <AdminPageHeader title={`Reembolsar pedido ${summary.orderNumber}`} />
      <FactList
        facts={[
          ["Estado", orderStatusLabel(summary.orderStatus)],
          ["Medio de pago", summary.channel ? channelLabels[summary.channel]! : "Sin pago cobrado"],
          ["Cobrado", formatSoles(summary.capturedCents)],
          ["Ya reembolsado", formatSoles(summary.refundedCents)],
          ...(summary.inProgressCents > 0 ? ([["En proceso", formatSoles(summary.inProgressCents)]] as [string, string][]) : []),
          ...(summary.garantiaHeldCents > 0 ? ([["Garantía de bidones", formatSoles(summary.garantiaHeldCents)]] as [string, string][]) : []),
          ["Reembolsable", formatSoles(summary.refundableCents)],
        ]}
      />
      {summary.garantiaHeldCents > 0 && (
        <p className="mb-4 text-sm text-slate-600">La garantía de bidones no se reembolsa aquí: se devuelve cuando vuelven los bidones (ficha del cliente).</p>
      )}
      {summary.refundableCents > 0 ? (
        <Form method="post" className="space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
          <StaffFormError message={actionData?.error} />
          <input type="hidden" name="requestKey" value={requestKey} />
          <fieldset aria-describedby={errors.mode ? "mode-error" : undefined}>
            <legend className="mb-2 font-semibold text-slate-800">¿Cuánto devuelves?</legend>
            <label className="mb-2 flex items-center gap-2">
              <input type="radio" name="mode" value="total" defaultChecked={values.mode === "total"} className="h-5 w-5" />
              <span>Todo lo reembolsable ({formatSoles(summary.refundableCents)})</span>
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="mode" value="parcial" defaultChecked={values.mode !== "total"} className="h-5 w-5" />
              <span>Una parte</span>
            </label>
            <FieldError id="mode-error" message={errors.mode} />
          </fieldset>
          <div>
            <label htmlFor="amount" className="mb-1 block font-semibold text-slate-800">
              Monto a devolver (S/), si es una parte
            </label>
            <input
              id="amount"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder="25.50"
              defaultValue={values.amount ?? ""}
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={errors.amount ? "amount-error" : "amount-help"}
              className={staffInputClass}
            />
            <p id="amount-help" className="mt-1 text-sm text-slate-600">
              {unlimited
                ? `Sin límite para administración: por encima de ${formatSoles(summary.limitCents)} en total quedas registrado como quien lo aprobó.`
                : `Operaciones puede devolver hasta ${formatSoles(summary.limitCents)} en total por pedido; ya se devolvieron ${formatSoles(summary.staffRefundedCents)}.`}
            </p>
            <FieldError id="amount-error" message={errors.amount} />
          </div>
          <ReasonField label="Motivo" defaultValue={values.reason} error={errors.reason} />
          <button type="submit" name="intent" value="refund" className={staffPrimaryButtonClass}>
            Reembolsar
          </button>
        </Form>
      ) : (
        <>
          <StaffFormError message={actionData?.error} />
          <p role="status" className="mb-4 rounded-xl border border-slate-200 bg-white px-4 py-3 text-slate-800">
            {summary.inProgressCents > 0 ? "Todo lo cobrado ya está reembolsado o en proceso." : "Este pedido no tiene saldo por reembolsar."}
          </p>
        </>
      )}
      {summary.refunds.length > 0 && (
        <section className="mt-8">
          <h2 className="mb-3 text-lg font-bold text-slate-900">Reembolsos de este pedido</h2>
          <ul className="space-y-3">
            {summary.refunds.map((refund) => (
              <li key={refund.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
                <p className="flex flex-wrap justify-between gap-2 font-semibold">
                  <span>{formatSoles(refund.amountCents)}</span>
                  <span>{refundStatusLabels[refund.status] ?? refund.status}</span>
                </p>
                <p className="break-words text-sm text-slate-700">{refund.note ?? refundReasonLabels[refund.reason] ?? "Reembolso"}</p>
                <p className="break-words text-sm text-slate-600">{refund.requestedBy ?? "Automático"}</p>
                {refund.approvedBy && <p className="break-words text-sm text-slate-600">Aprobado por {refund.approvedBy}</p>}
                {refund.status === "failed" && refund.lastError && <p className="break-words text-sm text-red-700">{refund.lastError}</p>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {manualRefunds.map((refund) => (
        <Form key={refund.id} method="post" className="mt-4 rounded-2xl bg-amber-50 p-4 ring-1 ring-amber-200">
          <p className="mb-3 text-amber-900">Devuelve {formatSoles(refund.amountCents)} al cliente por transferencia o en efectivo y luego márcalo aquí.</p>
          <input type="hidden" name="refundId" value={refund.id} />
          <button type="submit" name="intent" value="manual_done" className={staffPrimaryButtonClass}>
            Marcar {formatSoles(refund.amountCents)} como devuelto
          </button>
        </Form>
      ))}
      <p className="mt-6 flex flex-wrap gap-4">
        <Link to={`/admin/pedidos/${summary.orderId}`} className="font-semibold text-brand-800 underline">
          Volver al pedido
        </Link>
        {unlimited && (
          <Link to="/admin/ajustes" className="font-semibold text-brand-800 underline">
            Cambiar el límite de operaciones
          </Link>
        )}
      </p>
    </div>
  );
}
