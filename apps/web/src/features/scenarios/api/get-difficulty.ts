import type { DifficultySetting } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const difficultyQueryKey = ['settings', 'difficulty'] as const;

export const getDifficulty = () =>
  api.get<DifficultySetting>('/api/settings/difficulty').then((response) => response.difficulty);

export const difficultyQueryOptions = () => queryOptions({ queryKey: difficultyQueryKey, queryFn: getDifficulty });

/** The platform difficulty (1 to 5) the scenario picker recommends. */
export function useDifficulty() {
  return useQuery(difficultyQueryOptions());
}
