import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/subscription-card";
import { getSignedInUser } from "@server/accounts/index.server";
import {
  activeCardProvider,
  cardEntry,
  cardProviderFor,
  isPlausibleCardNumber,
  sandboxCardToken,
  startCardRegistration,
  type CardEntry,
} from "@server/payments/index.server";
import { activateSubscription, findSubscriptionAwaitingCard, findSubscriptionForCardUpdate, updateSubscriptionCard } from "@server/subscriptions/index.server";
import { CulqiCardForm } from "~/components/subscriptions/culqi-card-form";
import { SandboxCardForm } from "~/components/subscriptions/sandbox-card-form";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { formatSoles } from "@core/money";
import { isUuid } from "@core/input-schemas";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { frequencyLabel } from "~/lib/subscription-labels";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { loginUrlFor } from "~/server/session.server";
import { siteInfo } from "~/server/site-info.server";

/** Spec §8: both attempts failing says this, followed by the provider's reason. */
const SIGNUP_FAILED = "No se pudo registrar la suscripción. Intenta nuevamente.";
const SIGNUP_EXPIRED = "El tiempo para registrar tu tarjeta terminó. Vuelve al carrito para empezar de nuevo.";

/** `?modo=actualizar`: an active, paused or past-due subscription saves a new card instead of paying its first period. */
const updating = (request: Request) => new URL(request.url).searchParams.get("modo") === "actualizar";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  if (!user) throw redirect(loginUrlFor(request));
  if (!isUuid(params.subscriptionId)) throw data("Suscripción no encontrada", { status: 404 });
  if (updating(request)) {
    const current = await findSubscriptionForCardUpdate(db, user.id, params.subscriptionId);
    if (!current) throw data("Suscripción no encontrada", { status: 404 });
    if (current.status === "pending_payment") throw redirect(`/suscripcion/tarjeta/${current.id}`);
    if (!current.canUpdate) throw redirect(`/dashboard/suscripciones/${current.id}`);
    // A fresh key per page load: the same form posted twice saves one card (Culqi's token, unique per use, does the same).
    return { mode: "update" as const, subscription: current, entry: cardEntry("update"), requestKey: crypto.randomUUID() };
  }
  const subscription = await findSubscriptionAwaitingCard(db, user.id, params.subscriptionId);
  if (!subscription) throw data("No se pudo cargar la suscripción", { status: 404 });
  if (subscription.status === "active") throw redirect(`/suscripcion/bienvenido?subscriptionId=${subscription.id}`);
  return { mode: "signup" as const, subscription, entry: cardEntry("signup") };
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Registra tu tarjeta",
    description: "Tarjeta para tu suscripción.",
    robots: "noindex,nofollow",
    path: "/suscripcion/tarjeta",
  });

export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  if (!user) throw redirect(loginUrlFor(request));
  // A malformed id names no subscription; PostgreSQL would refuse it with an error, not a 404.
  if (!isUuid(params.subscriptionId)) throw data("Suscripción no encontrada", { status: 404 });
  if (cardEntry(updating(request) ? "update" : "signup").kind === "provider_page") {
    // The provider registers the card on its own page; the subscription is activated when the
    // customer comes back (Flow: /flow/register-return, payments.md B.2).
    const subscription = await findSubscriptionAwaitingCard(db, user.id, params.subscriptionId);
    if (!subscription) return data({ error: "No se pudo cargar la suscripción", fieldErrors: {} }, { status: 404 });
    if (subscription.status === "active") return redirect(`/suscripcion/bienvenido?subscriptionId=${subscription.id}`);
    if (subscription.status !== "pending_payment" || !["pending", "payment_created"].includes(subscription.orderStatus))
      return data({ error: SIGNUP_EXPIRED, fieldErrors: {} }, { status: 410 });
    const started = await startCardRegistration(db, { user, siteUrl: (await siteInfo(db, request)).siteUrl });
    if (!started.ok) return data({ error: started.message, fieldErrors: {} }, { status: 502 });
    return redirect(started.redirectUrl);
  }
  const form = await readFormData(request);
  const token = tokenFrom(form);
  if ("error" in token) return data({ error: token.error, fieldErrors: token.fieldErrors ?? {} }, { status: 400 });
  if (updating(request))
    return updateCard(db, request, {
      userId: user.id,
      subscriptionId: params.subscriptionId,
      token: token.value,
      requestKey: String(form.get("requestKey") ?? "") || token.value,
    });
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

const RETRY_PARAM = { paid: "pagado", declined: "rechazado", pending: "en-proceso" } as const;

/** Issue 5: a new card for the renewals; a past-due subscription's unpaid period is charged with it at once. */
async function updateCard(
  db: Parameters<typeof updateSubscriptionCard>[0],
  request: Request,
  input: { userId: string; subscriptionId: string; token: string; requestKey: string },
) {
  const result = await updateSubscriptionCard(db, {
    ...input,
    cards: activeCardProvider(db),
    cardsFor: (provider) => cardProviderFor(db, provider),
    now: new Date(),
    siteUrl: (await siteInfo(db, request)).siteUrl,
  });
  if (!result.ok && result.reason === "not_found") throw data("Suscripción no encontrada", { status: 404 });
  if (!result.ok) return data({ error: result.message, fieldErrors: {} }, { status: 400 });
  const retry = result.retry ? `&cobro=${RETRY_PARAM[result.retry.outcome]}` : "";
  return redirect(`/dashboard/suscripciones/${input.subscriptionId}?cambio=${result.eventId}${retry}`);
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
  if (!match || month < 1 || month > 12 || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1)
    fieldErrors.expiry = "Ingresa una fecha de vencimiento válida (MM/AA)";
  if (!/^\d{3,4}$/.test(cvv)) fieldErrors.cvv = "Ingresa el código de seguridad";
  if (Object.keys(fieldErrors).length > 0) return { error: "Revisa los datos de tu tarjeta", fieldErrors };
  return { value: sandboxCardToken({ number }) };
}

export default function SubscriptionCard({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.mode === "update") return <CardUpdate loaderData={loaderData} error={actionData?.error ?? null} fieldErrors={actionData?.fieldErrors ?? {}} />;
  const { subscription, entry } = loaderData;
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
        {subscription.frequency === "anual"
          ? "Se cobra hoy el año completo; te avisaremos antes de cada renovación."
          : "Se cobra hoy el primer mes; cada mes te avisamos antes del siguiente cobro."}{" "}
        Guardamos tu tarjeta con la pasarela de pago, nunca en nuestros servidores.
      </p>
      {actionData?.error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
          {actionData.error}
        </p>
      )}
      <CardEntryForm
        entry={entry}
        email={subscription.email}
        sandbox={<SandboxCardForm amountCents={subscription.firstChargeCents} fieldErrors={actionData?.fieldErrors ?? {}} />}
      />
    </main>
  );
}

/** The card form the active provider's entry calls for; the sandbox's form differs between sign-up and update. */
function CardEntryForm({ entry, email, sandbox }: { entry: CardEntry; email: string; sandbox: React.ReactNode }) {
  switch (entry.kind) {
    case "provider_page":
      return <ProviderPageButton providerName={entry.providerName} />;
    case "on_request":
      return (
        <p className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          Para cambiar la tarjeta registrada en {entry.providerName} escríbenos por WhatsApp y te enviaremos el enlace de registro.
        </p>
      );
    case "culqi_checkout":
      return <CulqiCardForm publicKey={entry.publicKey} email={email} />;
    case "sandbox_form":
      return sandbox;
  }
}

/** The provider's own page registers the card; the customer comes back to the shop afterwards. */
function ProviderPageButton({ providerName }: { providerName: string }) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="mt-8">
      <p className="text-sm text-slate-600">Te llevaremos a {providerName} para registrar tu tarjeta de forma segura. Al volver, activaremos tu suscripción.</p>
      <button
        type="submit"
        disabled={navigation.state !== "idle"}
        className="mt-4 w-full rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400"
      >
        Registrar tarjeta con {providerName}
      </button>
    </Form>
  );
}

type UpdateLoaderData = Extract<Route.ComponentProps["loaderData"], { mode: "update" }>;

/** The card page in its update mode: no first charge; a past-due subscription's unpaid period is charged on saving. */
function CardUpdate({ loaderData, error, fieldErrors }: { loaderData: UpdateLoaderData; error: string | null; fieldErrors: Record<string, string> }) {
  const { subscription, entry } = loaderData;
  const unpaid = subscription.unpaidAmountCents;
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Actualiza tu tarjeta</h1>
      <p className="mt-2 text-slate-700">
        Suscripción {frequencyLabel(subscription.frequency).toLowerCase()} {subscription.subscriptionNumber}
        {subscription.cardLast4 ? ` · tarjeta actual: ${subscription.cardBrand ?? "Tarjeta"} terminada en ${subscription.cardLast4}` : ""}
      </p>
      <p className="mt-4 text-sm text-slate-600">
        {unpaid !== null
          ? `Al guardar la tarjeta cobraremos ${formatSoles(unpaid)} del periodo pendiente y tu suscripción se reactivará.`
          : "No haremos ningún cobro ahora: usaremos esta tarjeta desde tu próxima renovación."}{" "}
        Guardamos tu tarjeta con la pasarela de pago, nunca en nuestros servidores.
      </p>
      {error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
          {error}
        </p>
      )}
      <CardEntryForm
        entry={entry}
        email={subscription.email}
        sandbox={
          <SandboxCardForm
            amountCents={unpaid ?? 0}
            fieldErrors={fieldErrors}
            submitLabel={unpaid !== null ? `Guardar tarjeta y pagar ${formatSoles(unpaid)}` : "Guardar tarjeta"}
            hiddenFields={{ requestKey: loaderData.requestKey }}
          />
        }
      />
      <Link to={`/dashboard/suscripciones/${subscription.id}`} className="mt-6 inline-block text-sm font-semibold text-brand-800 underline">
        Volver a mi suscripción
      </Link>
    </main>
  );
}
