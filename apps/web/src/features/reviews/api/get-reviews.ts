import type { ReviewList, ReviewStatus, ScenarioList } from '@tradecraft/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';

/** Every query of the review queue starts here, so a grade refreshes the list and the detail at once. */
export const reviewsQueryKey = ['reviews'] as const;

export interface ReviewFilter {
  status: ReviewStatus;
  scenarioId?: string | undefined;
  page: number;
  pageSize: number;
}

export const getReviews = (filter: ReviewFilter) => api.get<ReviewList>(withQuery('/api/reviews', { ...filter }));

export const reviewsQueryOptions = (filter: ReviewFilter) =>
  queryOptions({
    queryKey: [...reviewsQueryKey, 'list', filter],
    queryFn: () => getReviews(filter),
    placeholderData: keepPreviousData,
  });

/** The written answers waiting for (or given) a grade, filtered by status and scenario, oldest submission first. */
export function useReviews(filter: ReviewFilter) {
  return useQuery(reviewsQueryOptions(filter));
}

/** The scenarios to filter by (names and ids only). */
export function useReviewScenarioChoices() {
  return useQuery({
    queryKey: [...reviewsQueryKey, 'scenario-choices'],
    queryFn: () =>
      api
        .get<ScenarioList>('/api/sim/list')
        .then((list) => list.scenarios.map((scenario) => ({ value: scenario.id, label: scenario.name }))),
    staleTime: 60_000,
  });
}
