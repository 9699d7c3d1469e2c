import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Signs the user out everywhere (audited); the account stays as it is. */
export function useEndUserSessions() {
  return useMutation({
    mutationFn: (id: string) => api.post<{ ok: true }>(`/api/users/${encodeURIComponent(id)}/end-sessions`),
  });
}
