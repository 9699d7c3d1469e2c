import type { CaseFile, PinInput, RunPin } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { caseFileQueryKey, updateCachedCaseFile } from './get-case-file';

const pinsUrl = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/pins`;

export const pinEvidence = (runId: string, input: PinInput) =>
  api.post<{ pin: RunPin }>(pinsUrl(runId), input).then((answer) => answer.pin);

export const unpinEvidence = (runId: string, pinId: string) =>
  api.delete<{ pins: RunPin[] }>(`${pinsUrl(runId)}/${encodeURIComponent(pinId)}`).then((answer) => answer.pins);

/** Pins an artifact or one of its lines on the evidence board. */
export function usePinEvidence(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PinInput) => pinEvidence(runId, input),
    onSuccess: (pin) => {
      const pins = queryClient.getQueryData<CaseFile>(caseFileQueryKey(runId))?.pins ?? [];
      updateCachedCaseFile(queryClient, runId, { pins: [...pins, pin] });
    },
  });
}

/** Takes a pin off the board; the server answers with the pins left. */
export function useUnpinEvidence(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pinId: string) => unpinEvidence(runId, pinId),
    onSuccess: (pins) => updateCachedCaseFile(queryClient, runId, { pins }),
  });
}
