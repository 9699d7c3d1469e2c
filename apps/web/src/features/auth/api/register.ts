import type { RegisterInput } from '@tradecraft/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const register = (input: RegisterInput) => api.post<{ message: string }>('/api/auth/register', input);

export function useRegister() {
  return useMutation({ mutationFn: register });
}
