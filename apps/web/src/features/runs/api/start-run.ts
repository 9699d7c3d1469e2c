import type { StartRunResponse } from '@tradecraft/shared';
import { api } from '../../../lib/api-client';

/**
 * Starts a run of the scenario (POST /api/runs), or continues the trainee's unfinished run of it; `startOver`
 * ends that run (kept in history) and starts a new one.
 */
export const startRun = (scenarioId: string, options: { startOver?: boolean } = {}) =>
  api.post<StartRunResponse>('/api/runs', options.startOver ? { scenarioId, startOver: true } : { scenarioId });
