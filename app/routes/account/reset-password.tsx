import { useEffect, useState } from "react";
import { data, Form, Link, useNavigate, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { INVALID_RESET_LINK, isResetTokenValid, resetPassword } from "@server/accounts/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { AuthShell, FormAlert, primaryButtonClass } from "~/components/account/auth-shell";
import { PasswordHints } from "~/components/account/password-hints";
import { PasswordInput } from "~/components/account/password-input";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { isPlainLine } from "@core/input-schemas";
import { fieldErrors, resetPasswordSchema } from "@core/account-schemas";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useHydrated } from "~/lib/use-hydrated";
import { privatePageHeaders } from "~/server/order-receipt.server";

/** Spec §9: the success view sends the customer to /login after 3000 ms. */
const REDIRECT_AFTER_MS = 3000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  // A token we sent is letters and digits; anything with a control character is not one (and
  // PostgreSQL would refuse a NUL byte in the lookup with an error).
  return { token, valid: token.length <= 200 && isPlainLine(token) && (await isResetTokenValid(context.get(dbContext), token)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  const parsed = resetPasswordSchema.safeParse(form);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return data({ done: false, invalidLink: false, error: errors.password ?? errors.confirmPassword ?? errors.form ?? null }, { status: 400 });
  }
  const result = await resetPassword(context.get(dbContext), parsed.data);
  if (!result.ok) return data({ done: false, invalidLink: result.message === INVALID_RESET_LINK, error: result.message }, { status: 400 });
  runJobSoon("emails");
  return { done: true, invalidLink: false, error: null };
}

// The link's token never leaves in a Referer to another site; "same-origin", not "no-referrer",
// because under "no-referrer" a browser posts this page's form with `Origin: null`, which React
// Router's own check refuses (a bare "Bad Request" without JavaScript).
export const headers = () => ({ ...privatePageHeaders, "Referrer-Policy": "same-origin" });

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Nueva contraseña",
    description: "Crea una nueva contraseña para tu cuenta.",
    path: "/reset-password",
    robots: "noindex,nofollow",
  });

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.done) return <PasswordUpdated />;
  if (!loaderData.valid || actionData?.invalidLink) return <InvalidLink />;
  return <ResetForm token={loaderData.token} error={actionData?.error ?? null} />;
}

function ResetForm({ token, error }: { token: string; error: string | null }) {
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const busy = useNavigation().state !== "idle";
  const hydrated = useHydrated();
  return (
    <AuthShell title="Nueva contraseña" subtitle="Elige una contraseña segura para tu cuenta.">
      <Form method="post" className="space-y-4" noValidate>
        {error && <FormAlert>{error}</FormAlert>}
        <input type="hidden" name="token" value={token} />
        <PasswordInput label="Nueva contraseña" name="password" autoComplete="new-password" value={password} onChange={setPassword} />
        <PasswordInput label="Confirmar contraseña" name="confirmPassword" autoComplete="new-password" value={confirmPassword} onChange={setConfirmPassword} />
        <PasswordHints value={password} />
        <button type="submit" className={primaryButtonClass} disabled={hydrated && (!password || !confirmPassword || busy)}>
          {busy ? "Actualizando..." : "Actualizar contraseña"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="font-semibold text-brand-800 underline">
          Iniciar sesión
        </Link>
      </p>
    </AuthShell>
  );
}

function InvalidLink() {
  return (
    <AuthShell title="Enlace inválido">
      <FormAlert>{INVALID_RESET_LINK_TEXT}</FormAlert>
      <Link to="/forgot-password" className={`${primaryButtonClass} mt-6`}>
        Solicitar nuevo enlace
      </Link>
    </AuthShell>
  );
}

const INVALID_RESET_LINK_TEXT = "El enlace de recuperación no es válido o ha expirado";

function PasswordUpdated() {
  const navigate = useNavigate();
  useEffect(() => {
    // Failures reach the error boundary, not this promise.
    const timer = setTimeout(() => void navigate("/login"), REDIRECT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <AuthShell title="Contraseña actualizada!">
      <FormAlert tone="success">Tu contraseña se cambió y cerramos las demás sesiones. Te llevaremos a iniciar sesión en unos segundos…</FormAlert>
      <Link to="/login" className={`${primaryButtonClass} mt-6`}>
        Iniciar sesión
      </Link>
    </AuthShell>
  );
}
