/** Runs `load`, retrying after each delay in turn when it throws; the last failure is rethrown. */
export async function withRetries<T>(load: () => Promise<T>, delaysMs: number[]): Promise<T> {
  for (const delay of delaysMs) {
    try {
      return await load();
    } catch (error) {
      console.error(`Load failed; retrying in ${delay} ms`, error);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  return load();
}
