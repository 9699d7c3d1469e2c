import type { PasswordChangeInput } from '@tradecraft/shared';
import { api } from './api-client';

/**
 * POST /api/auth/password: re-checks the current password on the server, which also signs out the user's other
 * sessions and gives this one a new cookie. Settings and the first-start "choose your password" page use it.
 */
export const changePassword = (input: PasswordChangeInput) => api.post<{ ok: true }>('/api/auth/password', input);
