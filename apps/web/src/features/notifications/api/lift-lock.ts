import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Lifts a sign-in lock from the bell: enabling an account lifts its lock (audited as a user edit). */
export function useLiftLock() {
  return useMutation({
    mutationFn: (userId: string) => api.patch<unknown>(`/api/users/${encodeURIComponent(userId)}`, { disabled: false }),
  });
}
