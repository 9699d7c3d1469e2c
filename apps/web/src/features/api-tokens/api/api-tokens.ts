import type { ApiToken, CreateApiTokenInput, CreatedApiToken } from '@tradecraft/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const key = ['api-tokens'] as const;

export const apiTokensQuery = queryOptions({
  queryKey: key,
  queryFn: () => api.get<{ tokens: ApiToken[] }>('/api/tokens'),
});

export const useApiTokens = () => useQuery(apiTokensQuery);

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) => api.post<CreatedApiToken>('/api/tokens', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<ApiToken>(`/api/tokens/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
