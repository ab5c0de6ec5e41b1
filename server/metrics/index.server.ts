/** The metrics domain's door (issue 11, /admin/metricas): the business's numbers, aggregated in SQL. */
export { businessMetrics, type BusinessMetrics } from "./business-metrics";
export { isMetricsTable, metricsCsv, metricsCsvFilename, type MetricsTable } from "./metrics-csv";
