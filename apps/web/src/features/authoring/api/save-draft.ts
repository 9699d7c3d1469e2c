import { api } from '../../../lib/api-client';
import type { SaveDraftInput, SaveDraftResponse } from './types';
import { scenarioPath } from './versions-keys';

/** Saves the draft (even with problems); 409 when someone saved since `revision` was loaded. */
export const saveDraft = (scenarioId: string, input: SaveDraftInput) =>
  api.put<SaveDraftResponse>(`${scenarioPath(scenarioId)}/draft`, input);
