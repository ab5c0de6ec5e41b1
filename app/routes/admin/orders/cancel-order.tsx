import { may } from "@core/staff-permissions";
import { Form, Link } from "react-router";
import type { Route } from "./+types/cancel-order";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { FactList, StaffFormError, staffDangerButtonClass, ReasonField } from "~/components/admin/staff-form";
import { FieldError } from "~/components/ui/form-field";
import { formatSoles } from "@core/money";
import { orderStatusLabel } from "@core/order-labels";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffContext } from "~/server/staff.server";
import { cancelOrderAction, notFound, orderIdParam } from "~/routes/admin/orders/staff-refunds.server";
import { orderRefundSummary } from "@server/payments/index.server";
import { staffCancellationBlocker } from "@server/order-flows/index.server";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("reembolsos.emitir")];

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const orderId = orderIdParam(params.orderId);
  const summary = await orderRefundSummary(db, orderId);
  if (!summary) notFound();
  // Decision 0071: unless the admin's settings allow it, operaciones' full refund counts against their per-order limit.
  const overLimit =
    !may(context.get(staffContext).role, "reembolsos.sin-limite") &&
    !summary.mayCancelAnyAmount &&
    summary.staffRefundedCents + summary.refundableCents > summary.limitCents;
  const limitBlocker = overLimit
    ? `Cancelar este pedido devuelve ${formatSoles(summary.refundableCents)}: supera lo que operaciones puede reembolsar por pedido (${formatSoles(summary.limitCents)}). Pide a un administrador que lo cancele.`
    : null;
  return { summary, blocker: (await staffCancellationBlocker(db, orderId)) ?? limitBlocker };
}

export const action = ({ request, context, params }: Route.ActionArgs) => cancelOrderAction(request, context, orderIdParam(params.orderId));

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Cancelar pedido ${loaderData?.summary.orderNumber ?? ""} · Back office` },
  { name: "robots", content: "noindex,nofollow" },
];

export default function CancelOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, blocker } = loaderData;
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const refundText =
    summary.refundableCents > 0
      ? summary.channel === "manual"
        ? `Se registrará la devolución de ${formatSoles(summary.refundableCents)} para hacerla a mano (pago en efectivo o con código).`
        : `Se devolverán ${formatSoles(summary.refundableCents)} al medio de pago del cliente.`
      : "No hay pagos cobrados que devolver.";
  return (
    <div className="max-w-2xl">
      <AdminPageHeader title={`Cancelar pedido ${summary.orderNumber}`} />
      <FactList
        facts={[
          ["Estado", orderStatusLabel(summary.orderStatus)],
          ["Cliente", summary.customerEmail],
          ["Cobrado", formatSoles(summary.capturedCents)],
        ]}
      />
      {blocker ? (
        <p role="status" className="mb-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900">
          {blocker}
        </p>
      ) : (
        <Form method="post" className="space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
          <StaffFormError message={actionData?.error} />
          <p className="text-slate-700">{refundText} El cliente recibirá un correo con el motivo.</p>
          <ReasonField label="Motivo de la cancelación" defaultValue={values.reason} error={errors.reason} />
          <div>
            <label className="flex items-start gap-2 text-slate-800">
              <input
                type="checkbox"
                name="confirm"
                value="si"
                required
                defaultChecked={values.confirm === "si"}
                aria-invalid={errors.confirm ? true : undefined}
                aria-describedby={errors.confirm ? "confirm-error" : undefined}
                className="mt-1 h-5 w-5"
              />
              <span>Confirmo que quiero cancelar este pedido{summary.refundableCents > 0 ? " y devolver su pago" : ""}.</span>
            </label>
            <FieldError id="confirm-error" message={errors.confirm} />
          </div>
          <button type="submit" name="intent" value="cancel" className={staffDangerButtonClass}>
            Cancelar pedido
          </button>
        </Form>
      )}
      <p className="mt-6">
        <Link to={`/admin/pedidos/${summary.orderId}`} className="font-semibold text-brand-800 underline">
          Volver al pedido
        </Link>
      </p>
    </div>
  );
}
