import {
  CHOICES_LIMIT,
  type Certificate,
  type CertificateList,
  type PathDetail,
  type PathInput,
  type PathList,
  type UpdatePathInput,
  type Verification,
} from '@tradecraft/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import type { ChoicesPage } from '../../../ui/search-select';
import type { ListQuery } from './cohorts';

export const pathsQueryKey = ['paths'] as const;

export const getPaths = ({ search, archived, page, pageSize }: ListQuery) =>
  api.get<PathList>(withQuery('/api/paths', { search, archived, page, pageSize }));
/** A page of learning paths by name; the old page stays on screen while the next one loads. */
export function usePaths(query: ListQuery) {
  const { search, archived, page, pageSize } = query;
  return useQuery({
    queryKey: [...pathsQueryKey, 'list', { search, archived, page, pageSize }],
    queryFn: () => getPaths(query),
    placeholderData: keepPreviousData,
  });
}

/** A path picker's choices: the first CHOICES_LIMIT paths not archived whose name holds the search. */
export const getPathChoices = async (search: string): Promise<ChoicesPage> => {
  const page = await getPaths({ search: search || undefined, page: 1, pageSize: CHOICES_LIMIT });
  return {
    items: page.items.map((path) => ({ value: path.id, label: path.name })),
    more: page.total > page.items.length,
  };
};
export const pathChoicesKey = [...pathsQueryKey, 'choices'] as const;

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
