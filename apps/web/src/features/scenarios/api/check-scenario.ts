import type { CheckScenarioResponse } from '@tradecraft/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** "Check only": the upload's checks on the file, nothing published (POST /api/sim/check-scenario). */
export function checkScenario(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.post<CheckScenarioResponse>('/api/sim/check-scenario', form);
}

export function useCheckScenario() {
  return useMutation({ mutationFn: checkScenario });
}
