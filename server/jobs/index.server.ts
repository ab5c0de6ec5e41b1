export { runDueJobs, type JobName, type JobsReport } from "./run-due-jobs";
export { createJobScheduler, runJobSoon, sendWhatWorkQueues, startJobScheduler, stopJobScheduler, type JobScheduler } from "./scheduler";
