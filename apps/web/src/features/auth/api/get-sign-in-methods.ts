import type { SignInMethods } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const getSignInMethods = () => api.get<SignInMethods>('/api/auth/methods');

export const signInMethodsQuery = queryOptions({
  queryKey: ['auth', 'methods'],
  queryFn: getSignInMethods,
  staleTime: Infinity,
});

export const useSignInMethods = () => useQuery(signInMethodsQuery);
