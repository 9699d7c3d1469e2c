import type { Profile } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { applySavedProfile } from './update-profile';

export function uploadProfilePhoto(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.put<{ profile: Profile }>('/api/profile/photo', form).then((response) => response.profile);
}

export function useUploadProfilePhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadProfilePhoto,
    onSuccess: (profile) => applySavedProfile(queryClient, profile),
  });
}
