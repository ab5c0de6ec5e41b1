import type { Route } from "./+types/privacidad";
import { findLegalText } from "@server/content/index.server";
import { dbContext } from "~/server/db-context.server";
import { LegalPage } from "~/components/layout/legal-page";
import { pageMeta, siteFromMatches } from "~/lib/seo";

export async function loader({ context }: Route.LoaderArgs) {
  return { text: await findLegalText(context.get(dbContext), "politica-privacidad") };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Política de Privacidad",
    description: "Cómo tratamos y protegemos tus datos personales conforme a la Ley N.° 29733.",
    robots: "noindex,follow",
    path: "/privacidad",
  });

export default function Privacidad({ loaderData }: Route.ComponentProps) {
  return <LegalPage heading="Política de Privacidad" text={loaderData.text} />;
}
