import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFoundPage } from "~/components/layout/not-found-page";
import { pageMeta, siteFromMatches } from "~/lib/seo";

/** Any unknown URL inside the public layout: a Spanish 404 with the header and footer around it. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Página no encontrada",
    description: "La página que buscas no existe o fue movida.",
    robots: "noindex,follow",
    path: location.pathname,
  });

export default function NotFound() {
  return <NotFoundPage />;
}
