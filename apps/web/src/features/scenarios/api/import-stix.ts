import type { StixImportResponse } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { scenariosQueryKey } from './get-scenarios';

/** Sends a STIX 2.1 bundle in the multipart field `file`; the server makes a draft-only scenario of it. */
export function importStixBundle(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.post<StixImportResponse>('/api/sim/import-stix', form);
}

export function useImportStixBundle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importStixBundle,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scenariosQueryKey }),
  });
}
