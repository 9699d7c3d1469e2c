import { api } from '../../../lib/api-client';
import type { RestoreVersionInput, ScenarioVersion } from './types';
import { scenarioPath } from './versions-keys';

/** Copies a version into the draft (creating or replacing it) and answers the draft. */
export const restoreVersion = (scenarioId: string, number: number, input: RestoreVersionInput) =>
  api.post<ScenarioVersion>(`${scenarioPath(scenarioId)}/versions/${number}/restore`, input);
