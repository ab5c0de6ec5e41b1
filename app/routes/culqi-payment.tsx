import { useEffect, useRef, useState } from "react";
import { data, redirect, useFetcher } from "react-router";
import type { Route } from "./+types/culqi-payment";
import { chargeCulqiToken, culqiClient, culqiPublicKey, findCulqiPayment, recordCulqiOrderCode } from "@server/payments/index.server";
import { dbContext } from "~/db-context.server";
import { formatSoles } from "~/lib/money";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/order-receipt.server";
import { siteInfo } from "~/site-info.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  const payment = await findCulqiPayment(context.get(dbContext), params.paymentId);
  const publicKey = culqiPublicKey();
  if (!payment || !publicKey) throw data("Pago no encontrado", { status: 404 });
  return { ...payment, publicKey };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "Pagar pedido", description: "Paga tu pedido con Culqi.", robots: "noindex,nofollow", path: "/pago/culqi" });

export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const form = await request.formData();
  const now = new Date();
  if (form.get("intent") === "order_confirmed") {
    await recordCulqiOrderCode(db, culqiClient(), { paymentId: params.paymentId, now });
    return redirect(`/pago/culqi/${params.paymentId}`);
  }
  const token = String(form.get("token") ?? "");
  if (!/^(tkn|ype)_(test|live)_\w+$/.test(token)) return data({ error: "Hubo un problema procesando tu pago. Intenta nuevamente." }, { status: 400 });
  const authentication = form.get("authentication3DS");
  const site = await siteInfo(db, request);
  const result = await chargeCulqiToken(db, culqiClient(), {
    paymentId: params.paymentId,
    token,
    now,
    siteUrl: site.siteUrl,
    authentication3DS: typeof authentication === "string" && authentication ? (JSON.parse(authentication) as Record<string, string>) : undefined,
  });
  switch (result.outcome) {
    case "paid":
      return redirect(`/success?orderId=${result.orderId}`);
    case "declined":
      return redirect(`/pago-error?orderId=${result.orderId}`);
    case "review":
      return data({ review: true as const, token });
    default:
      return data({ error: result.message }, { status: 502 });
  }
}

interface CulqiCheckoutInstance {
  token?: { id: string };
  order?: { id: string; payment_code?: string };
  error?: { user_message?: string };
  culqi: () => void;
  open: () => void;
  close: () => void;
}
declare global {
  interface Window {
    CulqiCheckout?: new (publicKey: string, config: unknown) => CulqiCheckoutInstance;
  }
}

/**
 * Culqi's own checkout (Checkout Custom, payments.md A.15) collects the card, Yape or a cash code;
 * the token comes back here and the server charges it. Needs Culqi's script from the internet.
 */
export default function CulqiPayment({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<{ error?: string; review?: boolean }>();
  const [widgetError, setWidgetError] = useState<string | null>(null);
  const checkout = useRef<CulqiCheckoutInstance | null>(null);
  const { orderNumber, amountCents, status, paymentCode, culqiOrderId, publicKey, email } = loaderData;

  useEffect(() => {
    if (status !== "created") return;
    const script = document.createElement("script");
    script.src = "https://js.culqi.com/checkout-js";
    script.async = true;
    script.onload = () => {
      if (!window.CulqiCheckout) return setWidgetError("No se pudo abrir Culqi. Intenta nuevamente en unos minutos.");
      const instance = new window.CulqiCheckout(publicKey, {
        settings: { title: "Vida Alcalina", currency: "PEN", amount: amountCents, ...(culqiOrderId ? { order: culqiOrderId } : {}) },
        client: { email },
        options: { lang: "es", installments: false, paymentMethods: { tarjeta: true, yape: true, bancaMovil: Boolean(culqiOrderId), agente: Boolean(culqiOrderId), billetera: Boolean(culqiOrderId), cuotealo: false } },
      });
      instance.culqi = () => {
        if (instance.token) fetcher.submit({ token: instance.token.id }, { method: "post" });
        else if (instance.order) fetcher.submit({ intent: "order_confirmed" }, { method: "post" });
        else setWidgetError(instance.error?.user_message ?? "Ocurrió un problema al inicializar el pago. Intenta nuevamente.");
      };
      checkout.current = instance;
    };
    script.onerror = () => setWidgetError("No se pudo abrir Culqi. Revisa tu conexión e intenta nuevamente.");
    document.body.appendChild(script);
    return () => script.remove();
    // The widget is set up once per payment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, publicKey, amountCents, culqiOrderId, email]);

  const message = widgetError ?? fetcher.data?.error ?? (fetcher.data?.review ? "Tu banco pide una verificación adicional (3D Secure). Completa la verificación e intenta nuevamente." : null);
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Pagar pedido {orderNumber}</h1>
      <p className="mt-2 text-2xl font-bold">{formatSoles(amountCents)}</p>
      {message && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
          {message}
        </p>
      )}
      {status === "created" && (
        <button type="button" onClick={() => checkout.current?.open()} disabled={fetcher.state !== "idle"} className="mt-8 rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400">
          Pagar con tarjeta, Yape o efectivo
        </button>
      )}
      {status === "pending" && paymentCode && (
        <section className="mt-8 rounded-3xl border border-brand-200 bg-brand-50 p-6">
          <h2 className="text-lg font-bold">Tu código de pago</h2>
          <p className="mt-2 font-mono text-3xl tracking-widest">{paymentCode}</p>
          <p className="mt-2 text-sm text-slate-700">Págalo desde tu banca móvil, billetera o en un agente antes de que venza. Te avisaremos por correo cuando se confirme.</p>
        </section>
      )}
    </main>
  );
}
