import { data, redirect } from "react-router";
import { CodeWithoutCheckoutDialog } from "~/components/checkout/code-without-checkout-dialog";
import type { Route } from "./+types/culqi-payment";
import { culqiCheckoutSettings, culqiClient, findCulqiPayment } from "@server/payments/index.server";
import { chargeCulqiToken, issueCulqiCodeWithoutCheckout, recordCulqiOrderCode } from "@server/order-flows/index.server";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { THREE_DS_PROBLEMS } from "~/lib/culqi-3ds";
import { readCulqiChargeForm } from "~/lib/culqi-charge-form";
import { formatSoles } from "@core/money";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useCulqiCharge } from "~/lib/use-culqi-charge";
import { useCulqiCheckout } from "~/lib/use-culqi-checkout";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { siteInfo } from "~/server/site-info.server";
import { ORDER_GENERATED_FOLLOW_INSTRUCTIONS } from "@core/checkout-messages";

/** Without both Culqi keys this page does not exist (decision 0026-late-payments-and-refunds): 404, never a 500. */
function requireCulqi() {
  const settings = culqiCheckoutSettings();
  if (!settings) throw data("Pago no encontrado", { status: 404 });
  return settings.publicKey;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const publicKey = requireCulqi();
  const payment = await findCulqiPayment(context.get(dbContext), params.paymentId);
  if (!payment) throw data("Pago no encontrado", { status: 404 });
  return { ...payment, publicKey };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "Pagar pedido", description: "Paga tu pedido con Culqi.", robots: "noindex,nofollow", path: "/pago/culqi" });

const CHARGE_ERROR = "Hubo un problema procesando tu pago. Intenta nuevamente.";
const CODE_ERROR = "No se pudo generar tu código de pago. Intenta nuevamente en unos minutos.";

export async function action({ request, params, context }: Route.ActionArgs) {
  const publicKey = requireCulqi();
  const db = context.get(dbContext);
  const form = await readFormData(request);
  const now = new Date();
  if (form.get("intent") === "order_confirmed") {
    await recordCulqiOrderCode(db, culqiClient(), { paymentId: params.paymentId, now });
    return redirect(`/pago/culqi/${params.paymentId}`);
  }
  if (form.get("intent") === "code_without_checkout") {
    const code = await issueCulqiCodeWithoutCheckout(db, culqiClient(), { paymentId: params.paymentId, now, publicKey });
    if (!code) return data({ error: CODE_ERROR }, { status: 400 });
    return redirect(`/pago/culqi/${params.paymentId}`);
  }
  const charge = readCulqiChargeForm(form);
  if (!charge) return data({ error: CHARGE_ERROR }, { status: 400 });
  const site = await siteInfo(db, request);
  const result = await chargeCulqiToken(db, culqiClient(), { ...charge, paymentId: params.paymentId, now, siteUrl: site.siteUrl });
  switch (result.outcome) {
    case "paid":
      return redirect(`/success?orderId=${result.orderId}`);
    case "declined":
      return redirect(`/pago-error?orderId=${result.orderId}`);
    case "review":
      // REVIEW again after the bank's check means the check did not count: the customer starts over.
      if (charge.authentication3DS) return data({ error: THREE_DS_PROBLEMS.failed }, { status: 402 });
      return data({ review: true as const, token: charge.token });
    default:
      return data({ error: result.message }, { status: 502 });
  }
}

/**
 * Culqi's checkout gives a token; the action charges it with Culqi3DS's device id. When Culqi asks
 * for 3-D Secure (REVIEW), the bank's check runs here and the same token is charged again with its
 * result (`useCulqiCharge`). Needs Culqi's scripts from the internet.
 */
export default function CulqiPayment({ loaderData }: Route.ComponentProps) {
  const { orderNumber, amountCents, status, paymentCode, culqiOrderId, publicKey, email } = loaderData;
  const payable = status === "created";
  const payment = useCulqiCharge({ enabled: payable, publicKey, amountCents, email });
  const checkout = useCulqiCheckout({ enabled: payable, publicKey, amountCents, culqiOrderId, email }, payment.handleCheckout);

  function pay() {
    payment.startAttempt();
    checkout.open?.();
  }

  const message = checkout.loadError ?? payment.message;
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Pagar pedido {orderNumber}</h1>
      <p className="mt-2 text-2xl font-bold">{formatSoles(amountCents)}</p>
      {(payable || status === "pending") && (
        <p role="status" className="mt-2 text-slate-700">
          {ORDER_GENERATED_FOLLOW_INSTRUCTIONS}
        </p>
      )}
      {message && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
          {message}
        </p>
      )}
      {payable && checkout.loadError && culqiOrderId && <CodeWithoutCheckoutDialog />}
      {payment.verifying && (
        <p role="status" className="mt-4 rounded-xl bg-brand-50 p-3 text-brand-900">
          Tu banco está verificando tu tarjeta (3D Secure). Sigue las indicaciones de la ventana de verificación.
        </p>
      )}
      {payable && (
        <button
          type="button"
          onClick={pay}
          disabled={!checkout.open || payment.busy}
          className="mt-8 rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400"
        >
          Pagar con tarjeta, Yape o efectivo
        </button>
      )}
      {status === "pending" && paymentCode && (
        <section className="mt-8 rounded-3xl border border-brand-200 bg-brand-50 p-6">
          <h2 className="text-lg font-bold">Tu código de pago</h2>
          <p className="mt-2 font-mono text-3xl tracking-widest">{paymentCode}</p>
          <p className="mt-2 text-sm text-slate-700">
            Págalo desde tu banca móvil, billetera o en un agente antes de que venza. Te avisaremos por correo cuando se confirme.
          </p>
        </section>
      )}
    </main>
  );
}
