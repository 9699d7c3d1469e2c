import { api } from '../../../lib/api-client';
import type { ScenarioVersion } from './types';
import { scenarioPath } from './versions-keys';

/** The scenario's draft (404 "This scenario has no draft." when there is none). */
export const getDraft = (scenarioId: string) => api.get<ScenarioVersion>(`${scenarioPath(scenarioId)}/draft`);
