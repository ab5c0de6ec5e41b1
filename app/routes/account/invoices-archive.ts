import type { Route } from "./+types/invoices-archive";
import { invoicesArchiveForUser } from "@server/invoices/index.server";
import { dbContext } from "~/server/db-context.server";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { requireUserMiddleware, userContext } from "~/server/session.server";

export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

/** /dashboard/facturas/descargar-todas: 'Descargar todas', every invoice PDF of the user in one zip. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const archive = await invoicesArchiveForUser(context.get(dbContext), user.id, { now: new Date() });
  return new Response(new Uint8Array(archive.content), {
    headers: {
      "Content-Type": archive.contentType,
      "Content-Disposition": `attachment; filename="${archive.filename}"`,
      "Content-Length": String(archive.content.length),
      ...privatePageHeaders,
    },
  });
}
