/**
 * A lower domain's entry point with the order's steps in place (decision 0083): the same call as
 * before the steps moved up, one argument fewer, so routes, jobs and tests call it unchanged.
 */
export function withOrderSteps<Args extends unknown[], Steps, Result>(entry: (...args: [...Args, Steps]) => Result, steps: Steps): (...args: Args) => Result {
  return (...args) => entry(...args, steps);
}
