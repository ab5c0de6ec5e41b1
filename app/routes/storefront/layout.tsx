import { Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { listServedDistricts } from "@server/content/index.server";
import { dbContext } from "~/server/db-context.server";
import { ChatButton } from "~/components/layout/chat-button";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import type { loader as rootLoader } from "~/root";

export function loader({ context }: Route.LoaderArgs) {
  // Below the fold: streamed on client navigations, awaited for documents (entry.server).
  const districts = listServedDistricts(context.get(dbContext)).then((rows) => rows.map(({ id, name }) => ({ id, name })));
  return { districts };
}

export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!root) return null;
  const { site } = root;
  return (
    <>
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2"
      >
        Saltar al contenido
      </a>
      <SiteHeader brandName={site.brandName} />
      <div className="splash-content">
        <Outlet />
      </div>
      <SiteFooter site={site} districts={loaderData.districts} />
      <ChatButton number={site.whatsappNumber} greeting={site.whatsappGreeting} />
    </>
  );
}
