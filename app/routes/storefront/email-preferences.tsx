import { data, Form, Link, useNavigation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/email-preferences";
import { getSignedInUser } from "@server/accounts/index.server";
import { currentPromotionalConsent, emailFromPreferencesToken, revokePromotionalConsent } from "@server/consent/index.server";
import { getIssuer } from "@server/content/index.server";
import { askForPromotionalConsent } from "@server/notifications/index.server";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import type { loader as rootLoader } from "~/root";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { readFormData } from "~/server/request-body.server";
import { clientAddress } from "~/server/session.server";
import { promotionalConsentLabel } from "@core/promotional-consent";

const INVALID_LINK = "El enlace no es válido. Usa el enlace completo de tu correo o inicia sesión para ver tus preferencias.";

type Reader = { email: string; via: "link" | "account"; userId: string | null } | { email: null; invalidLink: boolean };

/**
 * Issue 12: whose choice this page shows. The e-mail link's signed token names the address without
 * a login (revoking must be no harder than consenting); otherwise the signed-in customer's own.
 */
async function reader({ request, context }: { request: Request; context: Route.LoaderArgs["context"] }, token: string | null): Promise<Reader> {
  if (token !== null) {
    const email = emailFromPreferencesToken(token);
    return email ? { email, via: "link", userId: null } : { email: null, invalidLink: true };
  }
  const user = await getSignedInUser(context.get(dbContext), request);
  return user ? { email: user.email.toLowerCase(), via: "account", userId: user.id } : { email: null, invalidLink: false };
}

export async function loader(args: Route.LoaderArgs) {
  const token = new URL(args.request.url).searchParams.get("token");
  const who = await reader(args, token);
  if (who.email === null) {
    if (who.invalidLink) throw data(INVALID_LINK, { status: 404 });
    return { email: null, granted: false, pending: false, token: null };
  }
  const consent = await currentPromotionalConsent(args.context.get(dbContext), who.email);
  return { email: who.email, granted: consent.granted, pending: consent.pending, token };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const form = await readFormData(request);
  const token = new URL(request.url).searchParams.get("token") ?? (typeof form.get("token") === "string" ? String(form.get("token")) : null);
  const who = await reader(args, token);
  // RFC 8058: the mail client's one-click POST carries only this field and expects no page.
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  if (who.email === null) {
    if (oneClick || who.invalidLink) return new Response(INVALID_LINK, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    return data({ done: null, error: "Inicia sesión o usa el enlace de tu correo para cambiar tus preferencias." }, { status: 400 });
  }
  const intent = oneClick ? "revoke" : form.get("intent");
  if (intent !== "revoke" && intent !== "grant") return data({ done: null, error: "Elige una opción." }, { status: 400 });
  const db = context.get(dbContext);
  const evidence = { userId: who.userId, clientAddress: clientAddress(request), userAgent: request.headers.get("user-agent") };
  if (intent === "grant") {
    // Issue 24 (decision 0072): asking here is like ticking the box; the consent starts once
    // confirmed from the e-mail it sends (a signed-in account's address may not be its owner's).
    await askForPromotionalConsent(db, { email: who.email, source: "preferences", ...evidence }, await getIssuer(db), new Date());
    return data({ done: "asked" as const, error: null }, { headers: privatePageHeaders });
  }
  await revokePromotionalConsent(
    db,
    {
      email: who.email,
      source: who.via === "link" ? "unsubscribe" : "preferences",
      method: oneClick ? "one-click" : "preferences-button",
      buttonText: oneClick ? "List-Unsubscribe=One-Click" : REVOKE_BUTTON,
      ...evidence,
    },
    new Date(),
  );
  if (oneClick)
    return new Response("Listo: ya no recibirás promociones por correo.", { headers: { "Content-Type": "text/plain; charset=utf-8", ...privatePageHeaders } });
  return data({ done: "revoked" as const, error: null }, { headers: privatePageHeaders });
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Preferencias de correo",
    description: "Elige si quieres recibir promociones y novedades por correo.",
    robots: "noindex,nofollow",
    path: "/preferencias-de-correo",
  });

const REVOKE_BUTTON = "Dejar de recibir promociones";

const buttonClass = "rounded-full px-6 py-3 font-semibold disabled:cursor-not-allowed disabled:opacity-60";

export default function EmailPreferences({ loaderData, actionData }: Route.ComponentProps) {
  const site = useRouteLoaderData<typeof rootLoader>("root")?.site;
  const busy = useNavigation().state !== "idle";
  const { email, granted, pending, token } = loaderData;
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Preferencias de correo</h1>
      {!email ? (
        <div className="mt-6 space-y-4 text-slate-700">
          <p>Para ver o cambiar tus preferencias, inicia sesión o usa el enlace «Dejar de recibir promociones» de cualquier correo promocional.</p>
          <Link to="/login?redirectTo=%2Fpreferencias-de-correo" className={`${buttonClass} inline-block bg-brand-700 text-white`}>
            Iniciar sesión
          </Link>
        </div>
      ) : (
        <div className="mt-6 space-y-5">
          <p className="break-words text-slate-700">
            Correo: <strong>{email}</strong>
          </p>
          {actionData?.done && (
            <p role="status" className="rounded-xl border border-brand-200 bg-brand-50 p-3 text-brand-900">
              {actionData.done === "revoked"
                ? "Listo: ya no recibirás promociones por correo."
                : "Te enviamos un correo para confirmarlo: las promociones empiezan cuando abras su enlace y confirmes."}
            </p>
          )}
          {actionData?.error && (
            <p role="alert" className="rounded-xl bg-red-50 p-3 text-red-800">
              {actionData.error}
            </p>
          )}
          <p className="text-slate-700">
            {granted
              ? `Recibes promociones y novedades de ${site?.brandName ?? "la tienda"} por correo.`
              : `No recibes promociones por correo. Los correos de tus pedidos, envíos, comprobantes y cuenta te llegan siempre.`}
            {!granted && pending && " Hay un correo de confirmación esperando: las promociones empiezan solo si lo confirmas."}
          </p>
          <Form method="post" className="space-y-3">
            {token && <input type="hidden" name="token" value={token} />}
            {granted ? (
              <button type="submit" name="intent" value="revoke" disabled={busy} className={`${buttonClass} bg-brand-700 text-white hover:bg-brand-800`}>
                {REVOKE_BUTTON}
              </button>
            ) : (
              <>
                <button
                  type="submit"
                  name="intent"
                  value="grant"
                  disabled={busy}
                  className={`${buttonClass} border border-brand-700 text-brand-800 hover:bg-brand-50`}
                >
                  {promotionalConsentLabel(site?.brandName ?? "la tienda")}
                </button>
                {site && (
                  <p className="text-xs text-slate-600">
                    Responsable: {site.issuer.legalName} (RUC {site.issuer.ruc}), {site.issuer.fiscalAddress}. Solo para ofertas y novedades, enviadas a través
                    de nuestro proveedor de correo, hasta que retires tu consentimiento (aquí mismo, o con un clic desde cualquier promoción). Más en la{" "}
                    <Link to="/privacidad" className="underline">
                      Política de privacidad
                    </Link>
                    .
                  </p>
                )}
              </>
            )}
          </Form>
        </div>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = typeof (error as { data?: unknown })?.data === "string" ? String((error as { data: string }).data) : "No pudimos cargar tus preferencias.";
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Preferencias de correo</h1>
      <p role="alert" className="mt-6 rounded-xl bg-red-50 p-4 text-red-800">
        {message}
      </p>
    </main>
  );
}
