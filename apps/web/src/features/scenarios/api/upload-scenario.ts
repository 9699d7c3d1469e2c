import type { UploadScenarioResponse } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { scenariosQueryKey } from './get-scenarios';

/** Sends the file in the multipart field `file`; a refusal's problems arrive as the ApiError's issues. */
export function uploadScenario(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.post<UploadScenarioResponse>('/api/sim/upload-scenario', form);
}

export function useUploadScenario() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadScenario,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scenariosQueryKey }),
  });
}
