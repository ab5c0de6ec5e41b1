export { runDueJobs, type JobsReport } from "./run-due-jobs";
export { runJobsSoon, startJobScheduler } from "./scheduler";
