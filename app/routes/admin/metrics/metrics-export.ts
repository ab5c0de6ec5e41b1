import { data } from "react-router";
import type { Route } from "./+types/metrics-export";
import { businessMetrics, isMetricsTable, metricsCsv, metricsCsvFilename } from "@server/metrics/index.server";
import { dbContext } from "~/server/db-context.server";
import { parseMetricsRange } from "@core/metrics-range";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { allowStaff } from "~/server/staff.server";

/** Same roles as /admin/metricas: the figures are the admin's (decision 0052-business-metrics). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("metricas.ver")];

/**
 * /admin/metricas/exportar?tabla=dias&desde=…&hasta=…: one table (the summary without `tabla`) of the metrics page as CSV, in the
 * order export's format (UTF-8 with BOM, commas, CRLF). The tables are a row per day, week, district
 * or plan, so the file is built whole; nothing here reads orders one by one.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const table = params.get("tabla") || "resumen";
  if (!isMetricsTable(table)) throw data("Tabla no encontrada", { status: 404 });
  const parsed = parseMetricsRange(params, new Date());
  if (!parsed.ok) throw data(Object.values(parsed.errors).join(". "), { status: 400 });
  const metrics = await businessMetrics(context.get(dbContext), parsed.range);
  return new Response(metricsCsv(metrics, table), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${metricsCsvFilename(metrics, table)}"`,
      ...privatePageHeaders,
    },
  });
}
