export { runDueJobs } from "./run-due-jobs";
export { createJobScheduler, runJobSoon, sendWhatWorkQueues, startJobScheduler, stopJobScheduler } from "./scheduler";
