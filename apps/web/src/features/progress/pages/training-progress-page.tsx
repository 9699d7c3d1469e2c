import {
  formatScorePercent,
  runStatusLabel,
  TRAINING_PROGRESS_SORT_COLUMNS,
  type TrainingProgressItem,
} from '@tradecraft/shared';
import { Anchor, Group, Paper, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { DataTable } from '../../../ui/data-table';
import { DownloadButton } from '../../../ui/download-button';
import { useServerTable } from '../../../ui/use-server-table';
import {
  TRAINING_PROGRESS_FILENAMES,
  trainingProgressExportUrl,
  useTrainingProgress,
} from '../api/get-training-progress';
import { ResultBadge } from '../components/result-badge';
import { formatDateTime } from '../../../lib/dates';

const column = createColumnHelper<TrainingProgressItem>();

// Column ids are the server's sort keys: sorting and paging happen in SQL (GET /api/progress/all).
const columns = [
  column.accessor('userEmail', {
    id: 'user',
    header: 'User',
    size: 200,
    meta: { wrap: true },
    cell: (info) => (
      <>
        <Text size="sm" fw={600}>
          {info.row.original.userName || info.getValue()}
        </Text>
        <Text size="xs" c="dimmed">
          {info.getValue()}
        </Text>
      </>
    ),
  }),
  column.accessor('scenarioName', { id: 'training', header: 'Training', size: 200, meta: { wrap: true } }),
  column.accessor('scorePercent', {
    id: 'score',
    header: 'Score (%)',
    size: 100,
    meta: { align: 'right' },
    // Under the percent, the run's verdicts as its end screen counts them (docs/scoring.md).
    cell: (info) => (
      <>
        {formatScorePercent(info.getValue())}
        <VisuallyHidden>, </VisuallyHidden>
        <Text size="xs" c="dimmed" className="tabular-nums" style={{ whiteSpace: 'nowrap' }}>
          {info.row.original.rightAnswers} right · {info.row.original.missedSteps} missed
        </Text>
      </>
    ),
  }),
  column.accessor('result', {
    id: 'result',
    header: 'Result',
    size: 100,
    cell: (info) => <ResultBadge result={info.getValue()} />,
  }),
  column.accessor('completed', {
    id: 'status',
    header: 'Status',
    size: 120,
    cell: (info) => runStatusLabel(info.getValue()),
  }),
  column.accessor('startedAt', {
    id: 'started',
    header: 'Started',
    size: 170,
    cell: (info) => <time dateTime={info.getValue()}>{formatDateTime(info.getValue())}</time>,
  }),
  column.display({
    id: 'analystSkills',
    header: 'Analyst skills',
    size: 200,
    enableSorting: false,
    meta: { wrap: true },
    cell: (info) => {
      const met = info.row.original.skills.filter((skill) => skill.attempts > 0);
      return met.length === 0 ? (
        <Text span c="dimmed" size="sm">
          -
        </Text>
      ) : (
        <Text size="xs" className="tabular-nums">
          {met.map((skill) => `${skill.label} ${skill.percent}%`).join(' · ')}
        </Text>
      );
    },
  }),
  column.display({
    id: 'skills',
    header: 'Skills',
    size: 80,
    enableSorting: false,
    cell: (info) => (
      <Anchor
        component={Link}
        to={`${paths.skills}?userId=${encodeURIComponent(info.row.original.userId)}`}
        size="sm"
        aria-label={`Skills and calibration: ${info.row.original.userEmail}`}
      >
        Skills
      </Anchor>
    ),
  }),
  column.display({
    id: 'report',
    header: 'Report',
    size: 80,
    enableSorting: false,
    meta: { actions: true },
    cell: (info) => (
      <Anchor
        component={Link}
        to={paths.runReport(info.row.original.runId)}
        size="sm"
        data-run-id={info.row.original.runId}
        aria-label={`Report: ${info.row.original.userEmail}, ${info.row.original.scenarioName}`}
      >
        Report
      </Anchor>
    ),
  }),
];

export default function TrainingProgressPage() {
  const table = useServerTable({
    tableId: 'progress',
    filters: { search: '' },
    textFilters: ['search'],
    sortColumns: TRAINING_PROGRESS_SORT_COLUMNS,
    // Newest first until a column is chosen; a first click sorts ascending, the next descending.
    defaultSort: { id: 'started', desc: true },
  });
  const debouncedSearch = table.filterQuery.search ?? '';
  const progress = useTrainingProgress(table.query);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Training Progress</Title>
        <Text c="dimmed">
          Every trainee&apos;s runs: search by username, sort by any column, open a report or export the list as CSV or
          XLSX.
        </Text>
      </div>

      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" align="flex-end" gap="md">
          <TextInput
            label="Search by username"
            placeholder="Email or name"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={table.filters.search}
            onChange={(changed) => table.setFilter('search', changed.currentTarget.value)}
            w={{ base: '100%', sm: 320 }}
          />
          <Group gap="sm">
            {(['csv', 'xlsx'] as const).map((format) => (
              <DownloadButton
                key={format}
                href={trainingProgressExportUrl(debouncedSearch, format)}
                filename={TRAINING_PROGRESS_FILENAMES[format]}
                variant="default"
              >
                Export {format.toUpperCase()}
              </DownloadButton>
            ))}
          </Group>
        </Group>
        <Text size="sm" c="dimmed" mt="xs">
          {debouncedSearch
            ? 'The export holds every run of the users matching this search, newest first.'
            : 'The export holds every run, newest first.'}
        </Text>
      </Paper>

      <DataTable
        label="Training progress"
        columns={columns}
        getRowId={(row) => row.runId}
        loadingText="Loading training progress..."
        emptyMessage={
          debouncedSearch
            ? 'No runs match this search. Check the spelling, or search by part of the email or name.'
            : 'No training runs yet. Runs appear here as soon as trainees start a scenario.'
        }
        itemName="runs"
        {...table.tableProps(progress)}
      />
    </Stack>
  );
}
