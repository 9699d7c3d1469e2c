import { api } from '../../../lib/api-client';
import type { CreateDraftInput, CreateDraftResponse } from './types';

/** A new scenario whose only version is this draft; 409 when its id is taken. */
export const createDraft = (input: CreateDraftInput) => api.post<CreateDraftResponse>('/api/sim/drafts', input);
