import type { Route } from "./+types/orders-export";
import { staffOrdersCsvFilename, staffOrdersCsvStream } from "@server/orders/index.server";
import { dbContext } from "~/server/db-context.server";
import { limaToday } from "@core/lima-dates";
import { parseStaffOrderFilters } from "@core/staff-order-filters";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { allowStaff } from "~/server/staff.server";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("pedidos.gestionar")];

/**
 * /admin/pedidos/exportar?…: the list's filtered orders as CSV, streamed batch by batch (issue 10:
 * 100 000 rows without holding them in memory; bench/orders-csv.ts measures it).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const filters = parseStaffOrderFilters(new URL(request.url).searchParams);
  return new Response(staffOrdersCsvStream(context.get(dbContext), filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${staffOrdersCsvFilename(limaToday(new Date()))}"`,
      ...privatePageHeaders,
    },
  });
}
