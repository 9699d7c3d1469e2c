/** The local list of started simulation ids (key 'simulations'); the server's record is the truth. */
const STARTED_RUNS_KEY = 'simulations';
const KEEP_AT_MOST = 200;

export function readStartedRuns(): string[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(STARTED_RUNS_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberStartedRun(runId: string): void {
  const ids = readStartedRuns().filter((id) => id !== runId);
  ids.push(runId);
  try {
    window.localStorage.setItem(STARTED_RUNS_KEY, JSON.stringify(ids.slice(-KEEP_AT_MOST)));
  } catch {
    /* storage blocked or full: the run is on the server all the same */
  }
}
