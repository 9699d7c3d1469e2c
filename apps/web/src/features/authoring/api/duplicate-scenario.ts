import { api } from '../../../lib/api-client';
import type { DuplicateScenarioInput, DuplicateScenarioResponse } from './types';
import { scenarioPath } from './versions-keys';

/** A new scenario whose draft copies this one ("<name> (copy)" unless a name is given). */
export const duplicateScenario = (scenarioId: string, input: DuplicateScenarioInput = {}) =>
  api.post<DuplicateScenarioResponse>(`${scenarioPath(scenarioId)}/duplicate`, input);
