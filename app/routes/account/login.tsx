import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { getSignedInUser, landingPathFor, signIn } from "@server/accounts/index.server";
import { AuthShell, FormAlert, primaryButtonClass } from "~/components/account/auth-shell";
import { PasswordInput } from "~/components/account/password-input";
import { Field, inputClass } from "~/components/ui/form-field";
import { redirectWithAuthCookies } from "~/server/auth-response.server";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { fieldErrors, loginSchema } from "@core/account-schemas";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { clientKey, safeRedirectPath } from "~/server/session.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSignedInUser(context.get(dbContext), request);
  if (user) throw redirect(safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), landingPathFor(user.role)));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  const parsed = loginSchema.safeParse(form);
  const email = typeof form.email === "string" ? form.email : "";
  if (!parsed.success) return data({ email, fieldErrors: fieldErrors(parsed.error), message: null }, { status: 400 });
  const result = await signIn(context.get(dbContext), { ...parsed.data, client: clientKey(request) });
  if (!result.ok) return data({ email, fieldErrors: {}, message: result.message }, { status: 400 });
  return redirectWithAuthCookies(safeRedirectPath(parsed.data.redirectTo, result.landingPath), result.headers);
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Iniciar sesión",
    description: "Ingresa a tu cuenta para ver tus pedidos, facturas, envíos y tu suscripción.",
    path: "/login",
    robots: "noindex,follow",
  });

export default function Login({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const errors: Record<string, string | undefined> = actionData?.fieldErrors ?? {};
  return (
    <AuthShell
      title="Iniciar sesión"
      subtitle="Accede a tus pedidos, facturas, envíos y suscripción."
      footer={
        <>
          Al ingresar aceptas los{" "}
          <Link to="/terms" className="font-semibold text-brand-800 underline">
            Términos y condiciones
          </Link>{" "}
          y la{" "}
          <Link to="/privacy" className="font-semibold text-brand-800 underline">
            Política de privacidad
          </Link>
          .
        </>
      }
    >
      <Form method="post" className="space-y-4" noValidate>
        {actionData?.message && <FormAlert>{actionData.message}</FormAlert>}
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        <Field label="Correo electrónico" error={errors.email}>
          {(props) => (
            <input {...props} name="email" type="email" autoComplete="email" required defaultValue={actionData?.email ?? ""} className={inputClass} />
          )}
        </Field>
        <PasswordInput label="Contraseña" name="password" autoComplete="current-password" error={errors.password} />
        <div className="flex items-center justify-between gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="checkbox" name="remember" className="h-4 w-4 accent-brand-700" />
            Recordarme
          </label>
          <Link to="/forgot-password" className="font-semibold text-brand-800 underline">
            ¿Olvidaste tu contraseña?
          </Link>
        </div>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          {busy ? "Ingresando..." : "Iniciar sesión"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-600">
        ¿No tienes cuenta?{" "}
        <Link
          to={`/register${params.get("redirectTo") ? `?redirectTo=${encodeURIComponent(params.get("redirectTo")!)}` : ""}`}
          className="font-semibold text-brand-800 underline"
        >
          Regístrate
        </Link>
      </p>
    </AuthShell>
  );
}
