import type { ReviewDetail } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { reviewsQueryKey } from './get-reviews';

export const reviewQueryKey = (id: number) => [...reviewsQueryKey, 'detail', id] as const;

export const getReview = (id: number) => api.get<ReviewDetail>(`/api/reviews/${id}`);

/** One submission with its prompt, checks, rubric and model answer. */
export function useReview(id: number) {
  return useQuery(
    queryOptions({
      queryKey: reviewQueryKey(id),
      queryFn: () => getReview(id),
      enabled: Number.isInteger(id) && id > 0,
    }),
  );
}
