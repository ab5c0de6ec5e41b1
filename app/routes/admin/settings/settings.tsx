import { Form } from "react-router";
import type { Route } from "./+types/settings";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { StaffFormError, staffInputClass, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { FieldError } from "~/components/ui/form-field";
import { formatSoles } from "@core/money";
import { dbContext } from "~/server/db-context.server";
import { allowStaffPage } from "~/server/staff.server";
import { refundLimitAction } from "~/routes/admin/orders/staff-refunds.server";
import { operacionesRefundPolicy } from "@server/payments/index.server";
import { loadRouteSettings } from "@server/deliveries/index.server";
import { readFormData } from "~/server/request-body.server";
import { routeSettingsAction } from "~/routes/admin/despacho/route-planning.server";
import { RouteSettingsForm } from "~/components/admin/route-settings-form";

/** Admin only (its row of STAFF_PAGE_ROLES names no other role). */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/ajustes")];

export async function loader({ context, request }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const saved = new URL(request.url).searchParams.get("guardado");
  return { ...(await operacionesRefundPolicy(db)), routes: await loadRouteSettings(db), saved: saved === "1", savedRoutes: saved === "rutas" };
}

export async function action({ request, context }: Route.ActionArgs) {
  // Issue 26: the same page keeps the route settings; each form names its intent.
  const form = await readFormData(request.clone());
  if (form.get("intent") === "routes") return routeSettingsAction({ form, context, request });
  return refundLimitAction(request, context);
}

export const meta: Route.MetaFunction = () => [{ title: "Ajustes · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const routesAnswer = actionData && "intent" in actionData && actionData.intent === "routes" ? actionData : null;
  const limitAnswer =
    actionData && !("intent" in actionData && actionData.intent === "routes") ? (actionData as Exclude<typeof actionData, typeof routesAnswer>) : null;
  const errors: Record<string, string | undefined> = limitAnswer?.fieldErrors ?? {};
  return (
    <div className="max-w-2xl">
      <AdminPageHeader title="Ajustes" />
      {loaderData.savedRoutes && !actionData && (
        <p role="status" className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900">
          Ajustes de rutas guardados.
        </p>
      )}
      {loaderData.saved && !actionData && (
        <p role="status" className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900">
          Ajustes guardados.
        </p>
      )}
      <Form method="post" className="space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
        <StaffFormError message={limitAnswer?.error} />
        <div>
          <label htmlFor="limit" className="mb-1 block font-semibold text-slate-800">
            Límite de reembolso para operaciones (S/)
          </label>
          <input
            id="limit"
            name="limit"
            inputMode="decimal"
            autoComplete="off"
            required
            defaultValue={limitAnswer?.values.limit ?? (loaderData.limitCents / 100).toFixed(2)}
            aria-invalid={errors.limit ? true : undefined}
            aria-describedby={errors.limit ? "limit-error" : "limit-help"}
            className={staffInputClass}
          />
          <p id="limit-help" className="mt-1 text-sm text-slate-600">
            Actual: {formatSoles(loaderData.limitCents)} en total por pedido, sumando los reembolsos anteriores. Por encima, un administrador aprueba y queda
            registrado.
          </p>
          <FieldError id="limit-error" message={errors.limit} />
        </div>
        <label className="flex items-start gap-2 text-slate-800">
          <input
            type="checkbox"
            name="cancelAnyAmount"
            value="si"
            defaultChecked={limitAnswer ? limitAnswer.values.cancelAnyAmount === "si" : loaderData.mayCancelAnyAmount}
            className="mt-1 h-5 w-5"
          />
          <span>
            Operaciones puede cancelar un pedido antes del despacho con su reembolso total, aunque supere el límite.
            <span className="block text-sm text-slate-600">Sin marcar, esa cancelación también cuenta dentro del límite.</span>
          </span>
        </label>
        <button type="submit" name="intent" value="refund_limit" className={staffPrimaryButtonClass}>
          Guardar
        </button>
      </Form>
      <RouteSettingsForm settings={loaderData.routes} answer={routesAnswer} />
    </div>
  );
}
