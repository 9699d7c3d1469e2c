import type { RunResponse } from '@tradecraft/shared';
import { api } from '../../../lib/api-client';

/** Starts a run of the scenario at its first step (POST /api/runs). */
export const startRun = (scenarioId: string) => api.post<RunResponse>('/api/runs', { scenarioId });
