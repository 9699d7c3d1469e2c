import { formatCredit, PAGE_SIZE, type ReviewItem, type ReviewStatus } from '@tradecraft/shared';
import { Anchor, Group, Paper, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';

import { DataTable } from '../../../ui/data-table';
import { useReviews, useReviewScenarioChoices } from '../api/get-reviews';
import { formatDateTime } from '../../../lib/dates';

const column = createColumnHelper<ReviewItem>();

const traineeName = (item: ReviewItem) =>
  `${item.trainee.firstName} ${item.trainee.lastName}`.trim() || item.trainee.email;

const columns = [
  column.accessor((item) => item.trainee.email, {
    id: 'trainee',
    header: 'Trainee',
    size: 220,
    enableSorting: false,
    meta: { wrap: true },
    cell: (info) => (
      <>
        <Text size="sm" fw={600}>
          {traineeName(info.row.original)}
        </Text>
        <Text size="xs" c="dimmed">
          {info.getValue()}
        </Text>
      </>
    ),
  }),
  column.accessor('scenarioName', { header: 'Scenario', size: 220, enableSorting: false, meta: { wrap: true } }),
  column.accessor((item) => item.stepTitle ?? item.stepId, {
    id: 'step',
    header: 'Step',
    size: 220,
    enableSorting: false,
    meta: { wrap: true },
  }),
  column.accessor('submittedAt', {
    header: 'Submitted',
    size: 180,
    enableSorting: false,
    cell: (info) => <time dateTime={info.getValue()}>{formatDateTime(info.getValue())}</time>,
  }),
  column.accessor('credit', {
    header: 'Credit',
    size: 90,
    enableSorting: false,
    meta: { align: 'right' },
    cell: (info) => formatCredit(info.getValue()),
  }),
  column.display({
    id: 'open',
    header: 'Submission',
    size: 110,
    enableSorting: false,
    meta: { actions: true },
    cell: (info) => (
      <Anchor
        component={Link}
        to={paths.review(info.row.original.id)}
        size="sm"
        aria-label={`${info.row.original.status === 'pending' ? 'Grade' : 'Open'}: ${traineeName(info.row.original)}, ${info.row.original.stepTitle ?? info.row.original.stepId}`}
      >
        {info.row.original.status === 'pending' ? 'Grade' : 'Open'}
      </Anchor>
    ),
  }),
];

/** Admins: the written answers to grade by rubric (or already graded), filtered by status and scenario. */
export default function ReviewQueuePage() {
  // The filter lives in the address, so going back from a submission returns to the same list.
  const [params, setParams] = useSearchParams();
  const status: ReviewStatus = params.get('status') === 'graded' ? 'graded' : 'pending';
  const scenarioId = params.get('scenario') ?? undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const reviews = useReviews({ status, scenarioId, page, pageSize: PAGE_SIZE });
  const scenarios = useReviewScenarioChoices();

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Review Queue</Title>
        <Text c="dimmed">
          Written answers to grade by their rubric. Grading updates the run&apos;s score and tells the trainee.
        </Text>
      </div>
      <Paper withBorder radius="md" p="md">
        <Group align="flex-end" gap="md">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="review-status-label">
              Status
            </Text>
            <SegmentedControl
              aria-labelledby="review-status-label"
              value={status}
              onChange={(value) => update({ status: value === 'pending' ? null : value, page: null })}
              data={[
                { value: 'pending', label: 'Pending' },
                { value: 'graded', label: 'Graded' },
              ]}
            />
          </Stack>
          <Select
            label="Scenario"
            placeholder="All scenarios"
            clearable
            searchable
            data={scenarios.data ?? []}
            value={scenarioId ?? null}
            onChange={(value) => update({ scenario: value, page: null })}
            w={{ base: '100%', sm: 320 }}
          />
        </Group>
      </Paper>
      <DataTable
        label={status === 'pending' ? 'Submissions awaiting review' : 'Graded submissions'}
        columns={columns}
        data={reviews.data?.items}
        getRowId={(item) => String(item.id)}
        isLoading={reviews.isPending}
        isFetching={reviews.isPlaceholderData}
        error={reviews.error}
        onRetry={() => void reviews.refetch()}
        loadingText="Loading submissions..."
        emptyMessage={
          status === 'pending'
            ? 'Nothing to grade: every written answer has been reviewed.'
            : 'No graded submission yet.'
        }
        itemName="submissions"
        paging={{
          page,
          total: reviews.data?.total ?? 0,
          onPageChange: (next) => update({ page: next === 1 ? null : String(next) }),
        }}
      />
    </Stack>
  );
}
