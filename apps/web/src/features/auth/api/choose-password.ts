import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changePassword } from '../../../lib/change-password';
import { sessionQueryKey } from '../../../lib/session';

/** Replaces the printed first-start password; the session is re-read, so the account is free at once. */
export function useChoosePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}
