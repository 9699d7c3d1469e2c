import type { LoginInput, LoginResult, SessionUser } from '@tradecraft/shared';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session';

export const login = (input: LoginInput) => api.post<LoginResult>('/api/auth/login', input);

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => {
      // Null while the second step is still to come.
      if (user) queryClient.setQueryData(sessionQueryKey, { user });
    },
  });
}

/** The second step with a one-time code or a recovery code. */
const signInWithCode = (code: string) => api.post<{ user: SessionUser }>('/api/auth/login/code', { code });

/** The second step with a passkey: the server's challenge, the browser's authenticator, the server's check. */
async function signInWithPasskey(): Promise<{ user: SessionUser }> {
  const { options } = await api.post<{ options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/login/passkey-options',
  );
  const response = await startAuthentication({ optionsJSON: options });
  return api.post<{ user: SessionUser }>('/api/auth/login/passkey', { response });
}

export function useSecondStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (proof: { code: string } | { passkey: true }) =>
      'code' in proof ? signInWithCode(proof.code) : signInWithPasskey(),
    onSuccess: ({ user }) => {
      queryClient.setQueryData(sessionQueryKey, { user });
    },
  });
}
