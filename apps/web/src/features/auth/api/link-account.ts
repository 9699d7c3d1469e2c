import type { SsoSecondStep, SsoLinkInfo, SsoLinkInput, SsoLinkResult } from '@tradecraft/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session';

/** The account a single sign-on would be linked to (its cookie is HttpOnly: only the server reads it). */
export const getSsoLink = () => api.get<SsoLinkInfo>('/api/auth/oidc/link');

export const ssoLinkQuery = queryOptions({
  queryKey: ['auth', 'sso-link'],
  queryFn: getSsoLink,
  retry: false,
  staleTime: Infinity,
});

export const useSsoLink = () => useQuery(ssoLinkQuery);

export const linkAccount = (input: SsoLinkInput) => api.post<SsoLinkResult>('/api/auth/oidc/link', input);

export function useLinkAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkAccount,
    onSuccess: ({ user }) => {
      queryClient.setQueryData(sessionQueryKey, { user });
    },
  });
}

/** After a single sign-on to an account with a second factor: the methods the waiting sign-in may use. */
export const getSsoSecondStep = () => api.get<SsoSecondStep>('/api/auth/oidc/second-step');

export const useSsoSecondStep = () =>
  useQuery({ queryKey: ['auth', 'sso-second-step'], queryFn: getSsoSecondStep, retry: false, staleTime: Infinity });
