import type { DifficultySetting } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { difficultyQueryKey } from './get-difficulty';
import { scenariosQueryKey } from './get-scenarios';

export const updateDifficulty = (difficulty: number) =>
  api.put<DifficultySetting>('/api/settings/difficulty', { difficulty }).then((response) => response.difficulty);

export function useUpdateDifficulty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDifficulty,
    onSuccess: (difficulty) => {
      queryClient.setQueryData(difficultyQueryKey, difficulty);
      // Which scenarios are recommended follows the difficulty.
      return queryClient.invalidateQueries({ queryKey: scenariosQueryKey });
    },
  });
}
