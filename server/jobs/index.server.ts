export { jobNames, runDueJobs, type JobName, type JobsReport } from "./run-due-jobs";
export { createJobScheduler, runJobSoon, startJobScheduler, stopJobScheduler, type JobScheduler } from "./scheduler";
