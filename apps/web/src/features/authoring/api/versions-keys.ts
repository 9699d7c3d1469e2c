/** The query keys of the authoring screens; every mutation invalidates the scenario's. */
export const authoringQueryKey = ['authoring'] as const;
export const scenarioVersionsKey = (scenarioId: string) => [...authoringQueryKey, scenarioId] as const;

export const scenarioPath = (scenarioId: string) => `/api/sim/${encodeURIComponent(scenarioId)}`;
