import { api } from '../../../lib/api-client';
import type { PublishDraftInput, PublishDraftResponse } from './types';
import { scenarioPath } from './versions-keys';

/** Publishes the draft at `revision`: 409 when stale, 400 with the problems when the checker refuses it. */
export const publishDraft = (scenarioId: string, input: PublishDraftInput) =>
  api.post<PublishDraftResponse>(`${scenarioPath(scenarioId)}/publish`, input);
