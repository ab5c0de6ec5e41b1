export { runDueJobs, type JobsReport } from "./run-due-jobs";
export { startJobScheduler } from "./scheduler";
