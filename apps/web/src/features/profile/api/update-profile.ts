import type { Profile, UpdateProfileInput } from '@tradecraft/shared';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session';
import { profileQueryKey } from './get-profile';

export const updateProfile = (input: UpdateProfileInput) =>
  api.patch<{ profile: Profile }>('/api/profile', input).then((response) => response.profile);

/** The saved profile is also the session's user: the top bar and sidebar show the new name and picture at once. */
export function applySavedProfile(queryClient: QueryClient, profile: Profile) {
  queryClient.setQueryData(profileQueryKey, profile);
  queryClient.setQueryData(sessionQueryKey, { user: profile });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProfile, onSuccess: (profile) => applySavedProfile(queryClient, profile) });
}
