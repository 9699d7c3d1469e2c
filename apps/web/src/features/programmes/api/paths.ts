import type {
  Certificate,
  CertificateList,
  PathDetail,
  PathInput,
  PathSummary,
  UpdatePathInput,
  Verification,
} from '@tradecraft/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';

export const pathsQueryKey = ['paths'] as const;

export const getPaths = (archived: boolean) =>
  api.get<{ items: PathSummary[] }>(withQuery('/api/paths', { archived: String(archived) }));
export function usePaths(archived = false) {
  return useQuery({ queryKey: [...pathsQueryKey, 'list', archived], queryFn: () => getPaths(archived) });
}

export const getPath = (id: string) => api.get<PathDetail>(`/api/paths/${encodeURIComponent(id)}`);
export function usePath(id: string, enabled = true) {
  return useQuery({ queryKey: [...pathsQueryKey, 'detail', id], queryFn: () => getPath(id), enabled });
}

export const getPathCertificates = (id: string) =>
  api.get<CertificateList>(`/api/paths/${encodeURIComponent(id)}/certificates`);
export function usePathCertificates(id: string | null) {
  return useQuery({
    queryKey: [...pathsQueryKey, 'certificates', id],
    queryFn: () => getPathCertificates(id!),
    enabled: id !== null,
  });
}

function usePathMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => void queryClient.invalidateQueries({ queryKey: pathsQueryKey }) });
}

export const createPath = (input: PathInput) => api.post<PathDetail>('/api/paths', input);
export const useCreatePath = () => usePathMutation(createPath);

export const updatePath = ({ id, ...input }: UpdatePathInput & { id: string }) =>
  api.patch<PathDetail>(`/api/paths/${encodeURIComponent(id)}`, input);
export const useUpdatePath = () => usePathMutation(updatePath);

export const revokeCertificate = (id: string) =>
  api.post<Certificate>(`/api/certificates/${encodeURIComponent(id)}/revoke`);
export const useRevokeCertificate = () => usePathMutation(revokeCertificate);

export const certificatePdfUrl = (id: string) => `/api/certificates/${encodeURIComponent(id)}/pdf`;

export const verifyCertificate = (code: string) => api.get<Verification>(`/api/verify/${encodeURIComponent(code)}`);
export function useVerification(code: string) {
  return useQuery({ queryKey: ['verify', code], queryFn: () => verifyCertificate(code), retry: false });
}
