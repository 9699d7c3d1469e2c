import type { GradeReviewInput, ReviewDetail } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { reviewQueryKey } from './get-review';
import { reviewsQueryKey } from './get-reviews';

export const gradeReview = (id: number, input: GradeReviewInput) =>
  api.post<ReviewDetail>(`/api/reviews/${id}/grade`, input);

/** Grades a submission by the rubric; the server updates the run's score and tells the trainee. */
export function useGradeReview(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GradeReviewInput) => gradeReview(id, input),
    onSuccess: (detail) => {
      queryClient.setQueryData(reviewQueryKey(id), detail);
      void queryClient.invalidateQueries({ queryKey: reviewsQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['progress'] });
    },
  });
}
