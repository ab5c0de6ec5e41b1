import { Link } from "react-router";
import type { Route } from "./+types/verify-email";
import { verifyEmail } from "@server/accounts/index.server";
import { AuthShell, FormAlert, primaryButtonClass } from "~/components/account/auth-shell";
import { dbContext } from "~/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/order-receipt.server";

/** The link of the welcome email: verifies the address, which attaches its earlier guest orders. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { verified: token ? await verifyEmail(context.get(dbContext), token) : false };
}

export const headers = () => ({ ...privatePageHeaders, "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Confirmar correo",
    description: "Confirma el correo de tu cuenta.",
    path: "/verificar-correo",
    robots: "noindex,nofollow",
  });

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  return loaderData.verified ? (
    <AuthShell title="Correo confirmado">
      <FormAlert tone="success">Listo: tu correo está confirmado. Los pedidos que hiciste como invitado con este correo ya aparecen en tu cuenta.</FormAlert>
      <Link to="/dashboard/pedidos" className={`${primaryButtonClass} mt-6`}>
        Ver mis pedidos
      </Link>
    </AuthShell>
  ) : (
    <AuthShell title="Enlace inválido">
      <FormAlert>El enlace de confirmación no es válido o ha expirado. Inicia sesión y pide uno nuevo desde tu perfil.</FormAlert>
      <Link to="/login" className={`${primaryButtonClass} mt-6`}>
        Iniciar sesión
      </Link>
    </AuthShell>
  );
}
