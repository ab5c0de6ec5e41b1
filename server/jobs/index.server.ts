export { jobNames, runDueJobs, type JobName, type JobsReport } from "./run-due-jobs";
export { createJobScheduler, runJobSoon, startJobScheduler, type JobScheduler } from "./scheduler";
