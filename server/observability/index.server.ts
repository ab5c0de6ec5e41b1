/** Logs, metrics and the request's role for its log line (issue 27; decisions 0080, 0081). */
export { routeConsoleToLogger, shopLogger } from "./logger";
export { collectProcessMetrics, metricsText, observeHttpRequest, observeJobRun, observePayment, setMetricsSources } from "./metrics";
export { noteRequestRole, requestRoleOf } from "./request-role";
