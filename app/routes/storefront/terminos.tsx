import type { Route } from "./+types/terminos";
import { findLegalText } from "@server/content/index.server";
import { dbContext } from "~/server/db-context.server";
import { LegalPage } from "~/components/layout/legal-page";
import { pageMeta, siteFromMatches } from "~/lib/seo";

export async function loader({ context }: Route.LoaderArgs) {
  return { text: await findLegalText(context.get(dbContext), "terminos-condiciones") };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Términos y Condiciones",
    description: "Términos y condiciones de compra, suscripción y delivery de agua alcalina en Lima.",
    robots: "noindex,follow",
    path: "/terminos",
  });

export default function Terminos({ loaderData }: Route.ComponentProps) {
  return <LegalPage heading="Términos y Condiciones" text={loaderData.text} />;
}
