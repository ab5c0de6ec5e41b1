/** The metrics domain's door (issue 11, /admin/metricas): the business's numbers, aggregated in SQL. */
export { businessMetrics, type BusinessMetrics, type MetricsDay, type MetricsDistrict, type MetricsWeek } from "./business-metrics";
export { type MetricsActiveWeek, type MetricsPlan } from "./active-subscriptions";
export { isMetricsTable, metricsCsv, metricsCsvFilename, type MetricsTable } from "./metrics-csv";
