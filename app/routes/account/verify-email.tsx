import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/verify-email";
import { confirmEmailAddress, readConfirmationLink } from "@server/accounts/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { AuthShell, FormAlert, primaryButtonClass } from "~/components/account/auth-shell";
import { PasswordHints } from "~/components/account/password-hints";
import { PasswordInput } from "~/components/account/password-input";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { readFormData } from "~/server/request-body.server";
import { choosePasswordSchema, fieldErrors } from "@core/account-schemas";
import { isPlainLine } from "@core/input-schemas";

/** A token better-auth signs is three base64url parts; anything else is not one of our links. */
const tokenOf = (value: unknown) => (typeof value === "string" && value.length <= 4000 && isPlainLine(value) ? value : "");

/**
 * The link of the welcome e-mail (decision 0072). Its GET only shows a page with the button
 * "Confirmar mi correo": mail scanners and previews that follow links confirm nothing. When guest
 * orders of the address wait, the page also asks for the password: choosing it here is what
 * attaches them (the person holding the link chose it), and ends any other session of the account.
 * Links sent before this page existed are the same URL, so they keep working.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  const link = token ? await readConfirmationLink(context.get(dbContext), token) : ({ valid: false } as const);
  return { token, link };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  const token = tokenOf(form.token) || tokenOf(new URL(request.url).searchParams.get("token"));
  const password = typeof form.password === "string" ? form.password : "";
  const confirmPassword = typeof form.confirmPassword === "string" ? form.confirmPassword : "";
  const choosing = password !== "" || confirmPassword !== "";
  if (choosing) {
    const parsed = choosePasswordSchema.safeParse({ password, confirmPassword });
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return data({ outcome: null, error: errors.password ?? errors.confirmPassword ?? errors.form ?? "Revisa la contraseña." }, { status: 400 });
    }
  }
  const result = await confirmEmailAddress(context.get(dbContext), { token, password: choosing ? password : null, now: new Date() });
  if (!result.ok) {
    const error =
      result.reason === "password_already_chosen"
        ? "Tu contraseña ya fue elegida con un enlace de este correo. Si no la recuerdas, usa «¿Olvidaste tu contraseña?»."
        : INVALID_LINK;
    return data({ outcome: null, error }, { status: result.reason === "invalid_link" ? 404 : 409 });
  }
  if (result.passwordSet) runJobSoon("emails");
  return data({ outcome: { attached: result.attached, passwordSet: result.passwordSet }, error: null }, { headers: result.headers });
}

const INVALID_LINK =
  "El enlace de confirmación no es válido o ha expirado. Usa «¿Olvidaste tu contraseña?»: el enlace que te enviamos también confirma tu correo.";

// The link's token never leaves in a Referer to another site; "same-origin", not "no-referrer",
// because under "no-referrer" a browser posts this page's form with `Origin: null`, which React
// Router's own check refuses (a bare "Bad Request" without JavaScript).
export const headers = () => ({ ...privatePageHeaders, "Referrer-Policy": "same-origin" });

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Confirmar correo",
    description: "Confirma el correo de tu cuenta.",
    path: "/verificar-correo",
    robots: "noindex,nofollow",
  });

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.outcome) return <Confirmed attached={actionData.outcome.attached} passwordSet={actionData.outcome.passwordSet} />;
  const { link, token } = loaderData;
  if (!link.valid) return <InvalidLink />;
  return <ConfirmForm token={token} email={link.email} verified={link.verified} guestOrders={link.guestOrders} error={actionData?.error ?? null} />;
}

function ConfirmForm({
  token,
  email,
  verified,
  guestOrders,
  error,
}: {
  token: string;
  email: string;
  verified: boolean;
  guestOrders: number;
  error: string | null;
}) {
  const busy = useNavigation().state !== "idle";
  return (
    <AuthShell title="Confirmar mi correo" subtitle={verified ? "Este correo ya está confirmado." : undefined}>
      <Form method="post" className="space-y-4">
        {error && <FormAlert>{error}</FormAlert>}
        <input type="hidden" name="token" value={token} />
        <p className="break-words text-slate-700">
          Confirma que <strong>{email}</strong> es tu correo. Si no creaste una cuenta en nuestra tienda, no confirmes nada y cierra esta página.
        </p>
        {guestOrders > 0 && (
          <fieldset className="space-y-3 rounded-2xl border border-brand-200 bg-brand-50 p-4">
            <legend className="px-1 font-semibold text-brand-900">Tus pedidos como invitado</legend>
            <p className="text-sm text-slate-700">
              Con este correo se hicieron {guestOrders === 1 ? "1 pedido" : `${guestOrders} pedidos`} sin cuenta. Para verlos en tu cuenta, elige aquí tu
              contraseña (puede ser la misma que usaste al registrarte). Si la dejas en blanco, solo confirmamos tu correo.
            </p>
            <PasswordInput label="Contraseña" name="password" autoComplete="new-password" defaultValue="" />
            <PasswordInput label="Confirmar contraseña" name="confirmPassword" autoComplete="new-password" defaultValue="" />
            <PasswordHints />
          </fieldset>
        )}
        <button type="submit" name="intent" value="confirm" className={primaryButtonClass} disabled={busy}>
          {busy ? "Confirmando..." : "Confirmar mi correo"}
        </button>
      </Form>
    </AuthShell>
  );
}

function Confirmed({ attached, passwordSet }: { attached: number; passwordSet: boolean }) {
  return (
    <AuthShell title="Correo confirmado">
      <FormAlert tone="success">
        {passwordSet
          ? attached > 0
            ? `Listo: tu correo está confirmado, tu contraseña guardada y ${attached === 1 ? "tu pedido como invitado ya aparece" : `tus ${attached} pedidos como invitado ya aparecen`} en tu cuenta.`
            : "Listo: tu correo está confirmado y tu contraseña guardada."
          : "Listo: tu correo está confirmado."}
      </FormAlert>
      <Link to={passwordSet ? "/dashboard/pedidos" : "/login"} className={`${primaryButtonClass} mt-6`}>
        {passwordSet ? "Ver mis pedidos" : "Ir a mi cuenta"}
      </Link>
    </AuthShell>
  );
}

function InvalidLink() {
  return (
    <AuthShell title="Enlace inválido">
      <FormAlert>{INVALID_LINK}</FormAlert>
      <Link to="/forgot-password" className={`${primaryButtonClass} mt-6`}>
        Recuperar mi contraseña
      </Link>
    </AuthShell>
  );
}
