import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/subscription-card";
import { getSignedInUser } from "@server/accounts/index.server";
import { activeCardProvider, activeCardProviderId, culqiPublicKey, flowClient, isPlausibleCardNumber, sandboxCardToken, startFlowCardRegistration } from "@server/payments/index.server";
import { activateSubscription, findSubscriptionAwaitingCard } from "@server/subscriptions/index.server";
import { CulqiCardForm } from "~/components/subscriptions/culqi-card-form";
import { SandboxCardForm } from "~/components/subscriptions/sandbox-card-form";
import { dbContext } from "~/db-context.server";
import { formatSoles } from "~/lib/money";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { frequencyLabel } from "~/lib/subscription-labels";
import { privatePageHeaders } from "~/order-receipt.server";
import { loginUrlFor } from "~/session.server";
import { siteInfo } from "~/site-info.server";

/** Spec §8: both attempts failing says this, followed by the provider's reason. */
const SIGNUP_FAILED = "No se pudo registrar la suscripción. Intenta nuevamente.";
const SIGNUP_EXPIRED = "El tiempo para registrar tu tarjeta terminó. Vuelve al carrito para empezar de nuevo.";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  if (!user) throw redirect(loginUrlFor(request));
  const subscription = await findSubscriptionAwaitingCard(db, user.id, params.subscriptionId);
  if (!subscription) throw data("No se pudo cargar la suscripción", { status: 404 });
  if (subscription.status === "active") throw redirect(`/suscripcion/bienvenido?subscriptionId=${subscription.id}`);
  const provider = activeCardProviderId();
  return { subscription, provider, publicKey: provider === "culqi" ? culqiPublicKey() : null };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), { title: "Registra tu tarjeta", description: "Tarjeta para tu suscripción.", robots: "noindex,nofollow", path: "/suscripcion/tarjeta" });

export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  if (!user) throw redirect(loginUrlFor(request));
  if (activeCardProviderId() === "flow") {
    // Flow registers the card on its own page; the subscription is activated when the customer
    // comes back to /flow/register-return (payments.md B.2).
    const subscription = await findSubscriptionAwaitingCard(db, user.id, params.subscriptionId);
    if (!subscription) return data({ error: "No se pudo cargar la suscripción", fieldErrors: {} }, { status: 404 });
    if (subscription.status === "active") return redirect(`/suscripcion/bienvenido?subscriptionId=${subscription.id}`);
    if (subscription.status !== "pending_payment" || !["pending", "payment_created"].includes(subscription.orderStatus)) return data({ error: SIGNUP_EXPIRED, fieldErrors: {} }, { status: 410 });
    const started = await startFlowCardRegistration(db, flowClient(), { user, siteUrl: (await siteInfo(db, request)).siteUrl });
    if (!started.ok) return data({ error: started.message, fieldErrors: {} }, { status: 502 });
    return redirect(started.redirectUrl);
  }
  const form = await request.formData();
  const token = tokenFrom(form);
  if ("error" in token) return data({ error: token.error, fieldErrors: token.fieldErrors ?? {} }, { status: 400 });
  const result = await activateSubscription(db, {
    subscriptionId: params.subscriptionId,
    userId: user.id,
    token: token.value,
    cards: activeCardProvider(db),
    now: new Date(),
    siteUrl: (await siteInfo(db, request)).siteUrl,
  });
  if (result.ok) return redirect(`/suscripcion/bienvenido?subscriptionId=${result.subscriptionId}`);
  switch (result.reason) {
    case "not_found":
      return data({ error: "No se pudo cargar la suscripción", fieldErrors: {} }, { status: 404 });
    case "expired":
      return data({ error: SIGNUP_EXPIRED, fieldErrors: {} }, { status: 410 });
    case "in_progress":
      return data({ error: "Estamos procesando tu pago, espera un momento…", fieldErrors: {} }, { status: 409 });
    default:
      return data({ error: `${SIGNUP_FAILED} ${result.message}`, fieldErrors: {} }, { status: 402 });
  }
}

/** Culqi's checkout sends a token; the offline sandbox posts its test card, turned into a token here. */
function tokenFrom(form: FormData): { value: string } | { error: string; fieldErrors?: Record<string, string> } {
  const culqiToken = form.get("token");
  if (typeof culqiToken === "string" && culqiToken) return { value: culqiToken };
  const number = String(form.get("cardNumber") ?? "").replace(/\s+/g, "");
  const expiry = String(form.get("expiry") ?? "").trim();
  const cvv = String(form.get("cvv") ?? "").trim();
  const fieldErrors: Record<string, string> = {};
  if (!isPlausibleCardNumber(number)) fieldErrors.cardNumber = "Ingresa un número de tarjeta válido";
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry);
  const month = match ? Number(match[1]) : 0;
  const year = match ? 2000 + Number(match[2]) : 0;
  const now = new Date();
  if (!match || month < 1 || month > 12 || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) fieldErrors.expiry = "Ingresa una fecha de vencimiento válida (MM/AA)";
  if (!/^\d{3,4}$/.test(cvv)) fieldErrors.cvv = "Ingresa el código de seguridad";
  if (Object.keys(fieldErrors).length > 0) return { error: "Revisa los datos de tu tarjeta", fieldErrors };
  return { value: sandboxCardToken({ number }) };
}

export default function SubscriptionCard({ loaderData, actionData }: Route.ComponentProps) {
  const { subscription, provider, publicKey } = loaderData;
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Registra tu tarjeta</h1>
      <p className="mt-2 text-slate-700">
        Suscripción {frequencyLabel(subscription.frequency).toLowerCase()} {subscription.subscriptionNumber} · pedido {subscription.orderNumber}
      </p>
      <p className="mt-4 text-2xl font-bold" data-testid="first-charge">
        {formatSoles(subscription.firstChargeCents)}
      </p>
      <p className="text-sm text-slate-600">
        {subscription.frequency === "anual" ? "Se cobra hoy el año completo; te avisaremos antes de cada renovación." : "Se cobra hoy el primer mes; cada mes te avisamos antes del siguiente cobro."} Guardamos tu
        tarjeta con la pasarela de pago, nunca en nuestros servidores.
      </p>
      {actionData?.error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
          {actionData.error}
        </p>
      )}
      {provider === "flow" ? (
        <FlowCardButton />
      ) : provider === "culqi" && publicKey ? (
        <CulqiCardForm publicKey={publicKey} email={subscription.email} />
      ) : (
        <SandboxCardForm amountCents={subscription.firstChargeCents} fieldErrors={actionData?.fieldErrors ?? {}} />
      )}
    </main>
  );
}

/** Flow's page registers the card; the customer comes back to /flow/register-return. */
function FlowCardButton() {
  const navigation = useNavigation();
  return (
    <Form method="post" className="mt-8">
      <p className="text-sm text-slate-600">Te llevaremos a Flow para registrar tu tarjeta de forma segura. Al volver, activaremos tu suscripción.</p>
      <button type="submit" disabled={navigation.state !== "idle"} className="mt-4 w-full rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400">
        Registrar tarjeta con Flow
      </button>
    </Form>
  );
}
