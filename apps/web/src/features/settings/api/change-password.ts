import type { PasswordChangeInput } from '@tradecraft/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Re-checks the current password on the server; the server also signs out the user's other sessions. */
export const changePassword = (input: PasswordChangeInput) => api.post<{ ok: true }>('/api/auth/password', input);

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
