import type { MailPreferences, MailPreferencesUpdate } from '@tradecraft/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const mailPreferencesKey = ['mail', 'preferences'] as const;

export const useMailPreferences = () =>
  useQuery({ queryKey: mailPreferencesKey, queryFn: () => api.get<MailPreferences>('/api/mail/preferences') });

export function useSetMailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: MailPreferencesUpdate) => api.put<MailPreferences>('/api/mail/preferences', update),
    onSuccess: (preferences) => queryClient.setQueryData(mailPreferencesKey, preferences),
  });
}
