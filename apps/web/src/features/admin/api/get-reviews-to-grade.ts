import type { ReviewList } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { useOnNotification } from '../../../lib/live-notifications';

// Under the review queue's key, so grading an answer (which invalidates ['reviews']) refreshes the count.
export const reviewsToGradeQueryKey = ['reviews', 'to-grade'] as const;

/** How many written answers wait for grading: the queue's total, read from a one-row page. */
export const getReviewsToGrade = () =>
  api
    .get<ReviewList>(withQuery('/api/reviews', { status: 'pending', page: 1, pageSize: 1 }))
    .then((list) => list.total);

export const reviewsToGradeQueryOptions = () =>
  queryOptions({ queryKey: reviewsToGradeQueryKey, queryFn: getReviewsToGrade, refetchInterval: 60_000 });

/** The count, refreshed as soon as the bell hears of something new (a written answer to grade). */
export function useReviewsToGrade() {
  const query = useQuery(reviewsToGradeQueryOptions());
  useOnNotification(() => void query.refetch());
  return query;
}
