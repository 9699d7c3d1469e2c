import { useMutation } from '@tanstack/react-query';
import { changePassword } from '../../../lib/change-password';

export { changePassword };

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
