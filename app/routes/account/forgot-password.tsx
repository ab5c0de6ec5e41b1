import { useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/forgot-password";
import { RECOVERY_SEND_FAILED, requestPasswordReset } from "@server/accounts/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { AuthShell, FormAlert, primaryButtonClass } from "~/components/account/auth-shell";
import { Field, inputClass } from "~/components/ui/form-field";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { fieldErrors, forgotPasswordSchema } from "@core/account-schemas";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { useHydrated } from "~/lib/use-hydrated";
import { clientKey } from "~/server/session.server";

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  const email = String(form.email ?? "");
  const parsed = forgotPasswordSchema.safeParse(form);
  if (!parsed.success) return data({ sent: false, email, error: fieldErrors(parsed.error).email ?? null }, { status: 400 });
  const result = await requestPasswordReset(context.get(dbContext), { email: parsed.data.email, client: clientKey(request) });
  if (!result.ok) return data({ sent: false, email, error: result.message }, { status: result.message === RECOVERY_SEND_FAILED ? 503 : 429 });
  runJobSoon("emails");
  return { sent: true, email, error: null };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Recuperar contraseña",
    description: "Te enviaremos un enlace para crear una nueva contraseña.",
    path: "/forgot-password",
    robots: "noindex,follow",
  });

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const [retrying, setRetrying] = useState(false);
  const [email, setEmail] = useState(actionData?.email ?? "");
  const sending = useNavigation().state !== "idle";
  const hydrated = useHydrated();
  const sent = actionData?.sent && !retrying && !sending;

  if (sent) {
    return (
      <AuthShell title="Correo enviado" footer={<Footer />}>
        <FormAlert tone="success">
          Si existe una cuenta con <strong>{actionData.email}</strong>, te enviamos un enlace para crear una nueva contraseña. Revisa tu bandeja de entrada y la
          carpeta de spam. El enlace vence en 1 hora.
        </FormAlert>
        <button type="button" className={`${primaryButtonClass} mt-6`} onClick={() => setRetrying(true)}>
          Intentar de nuevo
        </button>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="¿Olvidaste tu contraseña?" subtitle="Escribe tu correo y te enviaremos un enlace para crear una nueva." footer={<Footer />}>
      <Form method="post" className="space-y-4" noValidate onSubmit={() => setRetrying(false)}>
        {actionData?.error && !retrying && <FormAlert>{actionData.error}</FormAlert>}
        <Field label="Correo electrónico">
          {(props) => (
            <input
              {...props}
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <button type="submit" className={primaryButtonClass} disabled={hydrated && (!email.trim() || sending)}>
          {sending ? "Enviando..." : "Enviar enlace"}
        </button>
      </Form>
    </AuthShell>
  );
}

function Footer() {
  return (
    <p>
      <Link to="/login" className="font-semibold text-brand-800 underline">
        Volver a iniciar sesión
      </Link>{" "}
      ·{" "}
      <Link to="/contact" className="font-semibold text-brand-800 underline">
        Contáctanos
      </Link>
    </p>
  );
}
