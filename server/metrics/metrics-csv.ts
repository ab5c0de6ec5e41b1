import { CSV_BOM, csvLine, csvSoles as soles, type CsvAmount } from "@core/csv";
import type { BusinessMetrics } from "./business-metrics";

/** The tables of /admin/metricas, each downloadable as CSV (`?tabla=`), in the page's order. */
export const METRICS_TABLES = ["dias", "distritos", "planes", "semanas", "activas", "resumen"] as const;
export type MetricsTable = (typeof METRICS_TABLES)[number];

export function isMetricsTable(value: string): value is MetricsTable {
  return (METRICS_TABLES as readonly string[]).includes(value);
}

const percent = (rate: number | null) => (rate === null ? "" : (rate * 100).toFixed(2));

const planLabels = { mensual: "Mensual", anual: "Anual" } as const;

function rowsOf(metrics: BusinessMetrics, table: MetricsTable): (string | CsvAmount)[][] {
  switch (table) {
    case "dias":
      return [
        ["Fecha", "Compras únicas netas (S/)", "Suscripciones netas (S/)", "Reembolsos (S/)", "Ingresos netos (S/)", "Pedidos pagados", "Entregas realizadas"],
        ...metrics.days.map((day) => [
          day.date,
          soles(day.oneTimeCents),
          soles(day.subscriptionCents),
          soles(day.refundedCents),
          soles(day.oneTimeCents + day.subscriptionCents),
          String(day.orders),
          String(day.deliveries),
        ]),
      ];
    case "distritos":
      return [
        ["Distrito", "Pedidos pagados", "Entregas realizadas"],
        ...metrics.districts.map((row) => [row.name, String(row.orders), String(row.deliveries)]),
      ];
    case "planes":
      return [
        ["Plan", "Suscripciones activas al cierre", "Cobro por periodo (S/)", "MRR (S/)"],
        ...metrics.plans.map((row) => [planLabels[row.plan], String(row.active), soles(row.periodCents), soles(row.mrrCents)]),
      ];
    case "semanas":
      return [
        ["Semana (lunes)", "Suscripciones nuevas", "Suscripciones canceladas"],
        ...metrics.weeks.map((row) => [row.monday, String(row.started), String(row.cancelled)]),
      ];
    case "activas":
      return [
        [
          "Semana (lunes)",
          "Al cierre del",
          "Activas mensual",
          "Activas anual",
          "Cobro por periodo mensual (S/)",
          "Cobro por periodo anual (S/)",
          "MRR mensual (S/)",
          "MRR anual (S/)",
          "MRR (S/)",
        ],
        ...metrics.activeWeeks.map((week) => {
          const [mensual, anual] = week.plans;
          return [
            week.monday,
            week.asOf,
            String(mensual!.active),
            String(anual!.active),
            soles(mensual!.periodCents),
            soles(anual!.periodCents),
            soles(mensual!.mrrCents),
            soles(anual!.mrrCents),
            soles(week.mrrCents),
          ];
        }),
      ];
    case "resumen":
      return [
        ["Indicador", "Valor"],
        ["Desde", metrics.range.from],
        ["Hasta", metrics.range.to],
        ["Ingresos netos (S/)", soles(metrics.totals.netCents)],
        ["Compras únicas netas (S/)", soles(metrics.totals.oneTimeCents)],
        ["Suscripciones netas (S/)", soles(metrics.totals.subscriptionCents)],
        ["Reembolsos (S/)", soles(metrics.totals.refundedCents)],
        ["Pedidos pagados", String(metrics.totals.orders)],
        ["Entregas realizadas", String(metrics.totals.deliveries)],
        ["Ticket promedio (S/)", metrics.totals.averageOrderCents === null ? "" : soles(metrics.totals.averageOrderCents)],
        ["Suscripciones activas al cierre", String(metrics.plans.reduce((total, plan) => total + plan.active, 0))],
        ["MRR al cierre (S/)", soles(metrics.mrrCents)],
        ["Suscriptores al inicio", String(metrics.churn.subscribersAtStart)],
        ["Cancelaciones de esos suscriptores", String(metrics.churn.cancelled)],
        ["Tasa de cancelación (%)", percent(metrics.churn.rate)],
        ["Renovaciones con cobro fallido", String(metrics.recovery.failed)],
        ["Renovaciones recuperadas", String(metrics.recovery.recovered)],
        ["Tasa de recuperación (%)", percent(metrics.recovery.rate)],
        ["Bidones por devolver", String(metrics.bidones.outstanding)],
        ["Clientes con bidones", String(metrics.bidones.customers)],
        ["Garantías en depósito (S/)", soles(metrics.garantias.cents)],
        ["Bidones con garantía", String(metrics.garantias.units)],
        ["Garantías cobradas por entregar (S/)", soles(metrics.garantias.chargedNotDeliveredCents)],
      ];
  }
}

/** One table as a CSV file: UTF-8 with a byte order mark, comma-separated, CRLF (like /admin/pedidos/exportar). */
export function metricsCsv(metrics: BusinessMetrics, table: MetricsTable): string {
  return CSV_BOM + rowsOf(metrics, table).map(csvLine).join("");
}

/** `metricas-dias-2026-10-26-a-2026-11-24.csv` */
export function metricsCsvFilename(metrics: BusinessMetrics, table: MetricsTable): string {
  return `metricas-${table}-${metrics.range.from}-a-${metrics.range.to}.csv`;
}
