import type { AccountSecurity, ActiveSession, SecondFactor, SecondFactorPolicy } from '@tradecraft/shared';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const securityKey = ['security'] as const;
const sessionsKey = ['security', 'sessions'] as const;
const policyKey = ['settings', 'second-factor-policy'] as const;

export function useAccountSecurity() {
  return useQuery({ queryKey: securityKey, queryFn: () => api.get<AccountSecurity>('/api/security') });
}

export function useActiveSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: () => api.get<{ sessions: ActiveSession[] }>('/api/security/sessions'),
  });
}

export interface Enrolled {
  factor: SecondFactor;
  recoveryCodes: string[] | null;
}

export const startTotpEnrolment = () =>
  api.post<{ secret: string; otpauthUrl: string; qrSvg: string }>('/api/security/totp');

function useSecurityMutation<I, O>(
  mutationFn: (input: I) => Promise<O>,
  keys: readonly (readonly string[])[] = [securityKey],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export const useConfirmTotp = () =>
  useSecurityMutation((input: { code: string; label: string }) =>
    api.post<Enrolled>('/api/security/totp/confirm', input),
  );

/** Creates a passkey with the browser's authenticator and registers it. */
export const useAddPasskey = () =>
  useSecurityMutation(async (label: string) => {
    const { options } = await api.post<{ options: PublicKeyCredentialCreationOptionsJSON }>(
      '/api/security/passkeys/options',
    );
    const response = await startRegistration({ optionsJSON: options });
    return api.post<Enrolled>('/api/security/passkeys', { response, label });
  });

export const useRemoveFactor = () =>
  useSecurityMutation((id: string) => api.delete<{ ok: true }>(`/api/security/factors/${encodeURIComponent(id)}`));

export const useRenewRecoveryCodes = () =>
  useSecurityMutation(() => api.post<{ recoveryCodes: string[] }>('/api/security/recovery-codes'));

export const useEndSession = () =>
  useSecurityMutation(
    (id: string) => api.delete<{ ok: true }>(`/api/security/sessions/${encodeURIComponent(id)}`),
    [sessionsKey],
  );

export const useEndOtherSessions = () =>
  useSecurityMutation(
    (input: { revokeApiTokens: boolean }) =>
      api.post<{ ok: true; revokedApiTokens: number }>('/api/security/sessions/end-others', input),
    [sessionsKey, ['api-tokens']],
  );

export function useSecondFactorPolicy(enabled: boolean) {
  return useQuery({
    queryKey: policyKey,
    queryFn: () => api.get<{ policy: SecondFactorPolicy }>('/api/settings/second-factor-policy'),
    enabled,
  });
}

export const useSetSecondFactorPolicy = () =>
  useSecurityMutation(
    (policy: SecondFactorPolicy) =>
      api.put<{ policy: SecondFactorPolicy }>('/api/settings/second-factor-policy', { policy }),
    [policyKey, securityKey],
  );
