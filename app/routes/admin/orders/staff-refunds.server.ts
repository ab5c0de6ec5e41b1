/**
 * The cancel and refund pages' form handling (issue 10): reads and checks what staff typed, calls
 * the orders and payments domains, and turns their answers into a redirect or a Spanish message
 * with the typed values kept. Unknown or malformed order ids are the Spanish 404.
 */
import { data, redirect, type RouterContextProvider } from "react-router";
import { publicSiteUrl } from "@server/config/env";
import { cancelOrderByStaff, markManualRefundDone, refundOrder } from "@server/order-flows/index.server";
import { culqiClientIfConfigured, setOperacionesRefundPolicy, type RefundDeps } from "@server/payments/index.server";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { staffActor } from "~/server/staff.server";
import { isPlainText, isUuid } from "@core/input-schemas";
import { parseSolesInput } from "~/lib/soles-input";

export const ORDER_NOT_FOUND = "Pedido no encontrado";

export function notFound(message = ORDER_NOT_FOUND): never {
  throw data(message, { status: 404 });
}

/** The order id of the URL, checked before any query (a malformed one is "no encontrado"). */
export function orderIdParam(value: string | undefined): string {
  if (!value || !isUuid(value)) notFound();
  return value;
}

const refundDeps = (): RefundDeps => ({ now: new Date(), siteUrl: publicSiteUrl(), culqi: culqiClientIfConfigured() });
const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

export interface StaffFormData {
  error: string | null;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
}

const refusal = (values: Record<string, string>, error: string | null, fieldErrors: Record<string, string> = {}, status = 400) =>
  data<StaffFormData>({ error, fieldErrors, values }, { status });

/** A reason staff type: required, one paragraph of plain text. */
function reasonError(reason: string): string | undefined {
  if (reason.length < 3) return "Escribe el motivo (al menos 3 caracteres).";
  if (reason.length > 500) return "El motivo puede tener hasta 500 caracteres.";
  if (!isPlainText(reason)) return "El motivo contiene caracteres no permitidos.";
  return undefined;
}

export async function cancelOrderAction(request: Request, context: Readonly<RouterContextProvider>, orderId: string) {
  const form = await readFormData(request);
  const values = { reason: text(form, "reason"), confirm: text(form, "confirm") };
  if (text(form, "intent") !== "cancel") return refusal(values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  const fieldErrors: Record<string, string> = {};
  const reasonProblem = reasonError(values.reason);
  if (reasonProblem) fieldErrors.reason = reasonProblem;
  if (values.confirm !== "si") fieldErrors.confirm = "Marca la casilla para confirmar la cancelación.";
  if (Object.keys(fieldErrors).length > 0) return refusal(values, "Revisa los campos marcados.", fieldErrors);

  const result = await cancelOrderByStaff(context.get(dbContext), staffActor(context, request), { orderId, reason: values.reason }, refundDeps());
  if (!result.ok) return result.code === "not_found" ? notFound() : refusal(values, result.message);
  const refund = result.refund;
  const status = !refund
    ? "cancelado"
    : !refund.ok
      ? "cancelado-reembolso-fallido"
      : refund.status === "succeeded"
        ? "cancelado-reembolsado"
        : refund.status === "manual"
          ? "cancelado-reembolso-manual"
          : "cancelado-reembolso-en-proceso";
  throw redirect(`/admin/pedidos/${orderId}?aviso=${status}`);
}

export async function refundOrderAction(request: Request, context: Readonly<RouterContextProvider>, orderId: string) {
  const form = await readFormData(request);
  const db = context.get(dbContext);
  const actor = staffActor(context, request);
  const intent = text(form, "intent");

  if (intent === "manual_done") {
    const refundId = text(form, "refundId");
    if (!isUuid(refundId)) return refusal({}, "Reembolso no encontrado.");
    const result = await markManualRefundDone(db, actor, { orderId, refundId }, { now: new Date(), siteUrl: publicSiteUrl() });
    if (!result.ok) return result.code === "not_found" ? notFound(result.message) : refusal({}, result.message);
    throw redirect(`/admin/pedidos/${orderId}?aviso=reembolso-hecho`);
  }
  if (intent !== "refund") return refusal({}, "Acción no válida. Recarga la página e inténtalo de nuevo.");

  const values = { mode: text(form, "mode"), amount: text(form, "amount"), reason: text(form, "reason"), requestKey: text(form, "requestKey") };
  const fieldErrors: Record<string, string> = {};
  if (values.mode !== "total" && values.mode !== "parcial") fieldErrors.mode = "Elige si devuelves el total o una parte.";
  let amountCents: number | null = null;
  if (values.mode === "parcial") {
    amountCents = parseSolesInput(values.amount);
    if (amountCents === null) fieldErrors.amount = "Escribe el monto en soles, por ejemplo 25.50.";
    else if (amountCents <= 0) fieldErrors.amount = "El monto debe ser mayor que cero.";
  }
  const reasonProblem = reasonError(values.reason);
  if (reasonProblem) fieldErrors.reason = reasonProblem;
  if (!isUuid(values.requestKey)) return refusal(values, "El formulario venció. Recarga la página e inténtalo de nuevo.");
  if (Object.keys(fieldErrors).length > 0) return refusal(values, "Revisa los campos marcados.", fieldErrors);

  const result = await refundOrder(db, actor, { orderId, amountCents, reason: values.reason, requestKey: values.requestKey }, refundDeps());
  if (!result.ok) return result.code === "not_found" ? notFound() : refusal(values, result.message);
  const status = result.status === "succeeded" ? "reembolso-hecho" : result.status === "manual" ? "reembolso-manual" : "reembolso-en-proceso";
  throw redirect(`/admin/pedidos/${orderId}?aviso=${status}`);
}

export async function refundLimitAction(request: Request, context: Readonly<RouterContextProvider>) {
  const form = await readFormData(request);
  const values = { limit: text(form, "limit"), cancelAnyAmount: text(form, "cancelAnyAmount") };
  if (text(form, "intent") !== "refund_limit") return refusal(values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
  const cents = parseSolesInput(values.limit);
  if (cents === null || cents > 10_000_000)
    return refusal(values, "Revisa el campo marcado.", { limit: "Escribe un monto en soles, por ejemplo 200.00 (hasta S/ 100 000.00)." });
  const policy = { limitCents: cents, mayCancelAnyAmount: values.cancelAnyAmount === "si" };
  const saved = await setOperacionesRefundPolicy(context.get(dbContext), staffActor(context, request), policy, new Date());
  if (!saved) return refusal(values, "No hay ajustes de la tienda que cambiar. Ejecuta la carga inicial de datos.");
  throw redirect("/admin/ajustes?guardado=1");
}
