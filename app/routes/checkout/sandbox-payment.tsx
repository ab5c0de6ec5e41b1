import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/sandbox-payment";
import { findSandboxPayment, type SandboxAction } from "@server/payments/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import { UNPAID_LIMIT_MESSAGE } from "@core/door-payment";
import { dbContext } from "~/server/db-context.server";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { readFormData } from "~/server/request-body.server";
import { formatSoles } from "@core/money";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { siteInfo } from "~/server/site-info.server";
import { ORDER_GENERATED_FOLLOW_INSTRUCTIONS } from "@core/checkout-messages";

export async function loader({ params, context }: Route.LoaderArgs) {
  const payment = await findSandboxPayment(context.get(dbContext), params.paymentId);
  if (!payment) throw data("Pago no encontrado", { status: 404 });
  return {
    orderId: payment.orderId,
    orderNumber: payment.orderNumber,
    amountCents: payment.amountCents,
    status: payment.status,
    paymentCode: payment.paymentCode,
    expiresAt: payment.expiresAt?.toISOString() ?? null,
    expired: payment.expiresAt !== null && payment.expiresAt <= new Date() && payment.status !== "succeeded",
  };
}

// Issue 9: a payment page belongs to one order; no cache anywhere keeps it.
export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Pago de prueba",
    description: "Pasarela de pago de prueba.",
    robots: "noindex,nofollow",
    path: "/pago/sandbox",
  });

const actions: SandboxAction[] = ["approve_card", "decline_card", "issue_code", "pay_code"];

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const intent = String(form.get("intent"));
  if (!actions.includes(intent as SandboxAction)) return data({ error: "Acción inválida" }, { status: 400 });
  const db = context.get(dbContext);
  const site = await siteInfo(db, request);
  const result = await applySandboxAction(db, params.paymentId, intent as SandboxAction, { now: new Date(), siteUrl: site.siteUrl });
  if (!result.ok && result.reason === "unpaid_limit") return data({ error: UNPAID_LIMIT_MESSAGE }, { status: 409 });
  if (!result.ok) {
    return data(
      { error: result.reason === "expired" ? "El tiempo para pagar este pedido terminó. Vuelve al carrito para generar uno nuevo." : "Pago no encontrado" },
      { status: result.reason === "expired" ? 410 : 404 },
    );
  }
  if (intent === "decline_card") return redirect(`/pago-error?orderId=${result.orderId}`);
  if (intent === "issue_code") return redirect(`/pago/sandbox/${params.paymentId}`);
  return redirect(`/success?orderId=${result.orderId}`);
}

/**
 * The offline payment provider (decisions.md, Payments): the page a real gateway would show,
 * with buttons that decide the outcome. It works without internet and without JavaScript.
 */
export default function SandboxPayment({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { orderNumber, amountCents, status, paymentCode, expired } = loaderData;
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">Modo de prueba · ningún cobro es real</p>
      <h1 className="mt-4 text-3xl font-bold text-brand-900">Pagar pedido {orderNumber}</h1>
      <p className="mt-2 text-2xl font-bold" data-testid="sandbox-amount">
        {formatSoles(amountCents)}
      </p>
      {(status === "created" || status === "pending") && !expired && (
        <p role="status" className="mt-2 text-slate-700">
          {ORDER_GENERATED_FOLLOW_INSTRUCTIONS}
        </p>
      )}
      {actionData && "error" in actionData && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
          {actionData.error}
        </p>
      )}
      {expired && !actionData && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
          El tiempo para pagar este pedido terminó. Vuelve al carrito para generar uno nuevo.
        </p>
      )}
      {status === "created" && !expired && (
        <div className="mt-8 space-y-6">
          <section className="rounded-3xl border border-slate-200 p-6">
            <h2 className="text-lg font-bold">Tarjeta de crédito o débito</h2>
            <Form method="post" className="mt-4 flex flex-wrap gap-3">
              <button
                name="intent"
                value="approve_card"
                disabled={busy}
                className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400"
              >
                Simular pago exitoso
              </button>
              <button
                name="intent"
                value="decline_card"
                disabled={busy}
                className="rounded-full border border-red-700 px-5 py-2.5 font-semibold text-red-800 hover:bg-red-50"
              >
                Simular pago rechazado
              </button>
            </Form>
          </section>
          <section className="rounded-3xl border border-slate-200 p-6">
            <h2 className="text-lg font-bold">Yape, banca móvil o agentes</h2>
            <p className="mt-1 text-sm text-slate-600">Genera un código y págalo desde tu app o en un agente.</p>
            <Form method="post" className="mt-4">
              <button
                name="intent"
                value="issue_code"
                disabled={busy}
                className="rounded-full border border-brand-700 px-5 py-2.5 font-semibold text-brand-800 hover:bg-brand-50"
              >
                Generar código de pago
              </button>
            </Form>
          </section>
        </div>
      )}
      {status === "pending" && paymentCode && (
        <section className="mt-8 rounded-3xl border border-brand-200 bg-brand-50 p-6">
          <h2 className="text-lg font-bold">Tu código de pago</h2>
          <p className="mt-2 font-mono text-3xl tracking-widest" data-testid="payment-code">
            {paymentCode}
          </p>
          <p className="mt-2 text-sm text-slate-700">
            Págalo con Yape, tu banca móvil o en un agente antes de que venza. Confirmaremos tu pedido apenas recibamos el pago.
          </p>
          {!expired && (
            <Form method="post" className="mt-4">
              <button
                name="intent"
                value="pay_code"
                disabled={busy}
                className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
              >
                Simular pago del código
              </button>
            </Form>
          )}
          {/* Issue 41: the order's page keeps the code, its deadline and «Pagar» for later. */}
          <p className="mt-4 text-sm">
            <Link to={`/orden/${loaderData.orderId}`} className="font-semibold text-brand-800 underline" data-testid="payment-order-link">
              Ver mi pedido y el plazo para pagar
            </Link>
          </p>
        </section>
      )}
      {(status === "succeeded" || status === "failed") && <p className="mt-8">Este pago ya fue {status === "succeeded" ? "confirmado" : "rechazado"}.</p>}
    </main>
  );
}
