import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/email-consent-confirm";
import { confirmPromotionalConsent, readPromotionalConsentRequest } from "@server/consent/index.server";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { readFormData } from "~/server/request-body.server";
import { clientAddress } from "~/server/session.server";
import { isPlainLine } from "@core/input-schemas";

const tokenOf = (value: unknown) => (typeof value === "string" && value.length <= 100 && isPlainLine(value) ? value : "");
const INVALID = "El enlace no es válido. Usa el enlace completo del correo de confirmación.";
const EXPIRED = "El enlace venció o ya no vale (dejaste de recibir promociones después de pedirlo). Puedes pedir uno nuevo en tus preferencias de correo.";

/**
 * The double opt-in's confirmation (issue 24, decision 0072): the e-mail's link opens this page,
 * whose GET only shows what would be agreed to, and to which address (link scanners confirm
 * nothing); its button records the consent, with the exact text shown when it was asked.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  const view = token ? await readPromotionalConsentRequest(context.get(dbContext), token, new Date()) : ({ valid: false } as const);
  if (!view.valid) throw data(INVALID, { status: 404 });
  return { token, email: view.email, consentText: view.consentText, confirmed: view.confirmed, expired: view.expired };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const token = tokenOf(form.get("token")) || tokenOf(new URL(request.url).searchParams.get("token"));
  const result = await confirmPromotionalConsent(
    context.get(dbContext),
    { token, clientAddress: clientAddress(request), userAgent: request.headers.get("user-agent") },
    new Date(),
  );
  if (!result.ok)
    return data({ confirmed: false, error: result.reason === "expired" ? EXPIRED : INVALID }, { status: result.reason === "expired" ? 410 : 404 });
  return data({ confirmed: true, error: null }, { headers: privatePageHeaders });
}

// The link's token never leaves in a Referer to another site; "same-origin", not "no-referrer",
// because under "no-referrer" a browser posts this page's form with `Origin: null`, which React
// Router's own check refuses (a bare "Bad Request" without JavaScript).
export const headers = () => ({ ...privatePageHeaders, "Referrer-Policy": "same-origin" });

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Confirmar promociones",
    description: "Confirma si quieres recibir promociones y novedades por correo.",
    robots: "noindex,nofollow",
    path: "/preferencias-de-correo/confirmar",
  });

export default function ConfirmPromotions({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const { token, email, consentText, expired } = loaderData;
  const confirmed = loaderData.confirmed || actionData?.confirmed;
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Confirmar promociones</h1>
      <p className="mt-6 break-words text-slate-700">
        Correo: <strong>{email}</strong>
      </p>
      {confirmed ? (
        <div className="mt-6 space-y-4">
          <p role="status" className="rounded-xl border border-brand-200 bg-brand-50 p-3 text-brand-900">
            Listo: te enviaremos promociones y novedades por correo. Puedes dejar de recibirlas cuando quieras, con un clic desde cualquiera de ellas.
          </p>
          <Link to="/" className="inline-block font-semibold text-brand-800 underline">
            Ir a la tienda
          </Link>
        </div>
      ) : expired || actionData?.error ? (
        <div className="mt-6 space-y-4">
          <p role="alert" className="rounded-xl bg-red-50 p-3 text-red-800">
            {actionData?.error ?? EXPIRED}
          </p>
          <Link to="/preferencias-de-correo" className="inline-block font-semibold text-brand-800 underline">
            Preferencias de correo
          </Link>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="token" value={token} />
          <p className="text-slate-700">Confirma solo si tú pediste recibir promociones con este correo. Esto es lo que aceptas:</p>
          <blockquote className="rounded-xl border border-slate-200 bg-white p-3 text-sm break-words text-slate-700">{consentText}</blockquote>
          <button
            type="submit"
            disabled={busy}
            className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60"
          >
            Sí, quiero recibir promociones
          </button>
          <p className="text-sm text-slate-600">Si no fuiste tú, cierra esta página: no te enviaremos promociones.</p>
        </Form>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = typeof (error as { data?: unknown })?.data === "string" ? String((error as { data: string }).data) : INVALID;
  return (
    <main id="contenido" className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Confirmar promociones</h1>
      <p role="alert" className="mt-6 rounded-xl bg-red-50 p-4 text-red-800">
        {message}
      </p>
    </main>
  );
}
