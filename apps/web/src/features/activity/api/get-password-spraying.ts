import type { SprayingAddress } from '@tradecraft/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { activityQueryKey } from './get-login-activity';

/** Addresses failing sign-ins on many accounts in the last 15 minutes. */
export function usePasswordSpraying() {
  return useQuery({
    queryKey: [...activityQueryKey, 'spraying'],
    queryFn: () => api.get<{ addresses: SprayingAddress[] }>('/api/logs/password-spraying'),
  });
}
