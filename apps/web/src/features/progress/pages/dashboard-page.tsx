import {
  DIFFICULTY_LABELS,
  formatScorePercent,
  PAGE_SIZE,
  runStatusLabel,
  type ProgressRun,
  type RecommendedScenario,
  type UserProgress,
} from '@tradecraft/shared';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconListDetails, IconPlayerPlay, IconReportAnalytics, IconTargetArrow } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { scenarioTypeColor } from '../../../ui/theme';
import { useSession } from '../../../lib/session';
import { useUserProgress } from '../api/get-user-progress';
import { DecisionTimeline } from '../components/decision-timeline';
import { LoadError } from '../../../ui/load-error';
import classes from '../components/progress.module.css';
import { ResultBadge } from '../components/result-badge';
import { SummaryCard } from '../components/summary-card';
import { formatDateTime, formatRelative } from '../../../lib/dates';

const percentText = (percent: number | null) => (percent === null ? '-' : `${percent}%`);

/** What the pass rate counts: a run awaiting review is neither passed nor failed yet, and says so. */
function passRateDetail(summary: UserProgress['summary']): string {
  const awaiting = summary.runsAwaitingReview > 0 ? `${summary.runsAwaitingReview} awaiting review` : '';
  if (summary.passRatePercent === null) return awaiting ? `${awaiting}, none judged yet` : 'No completed runs yet';
  return `${summary.runsPassed} passed at 70% or more${awaiting ? `; ${awaiting}` : ''}`;
}

function Summary({ progress }: { progress: UserProgress }) {
  const { summary } = progress;
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
      <SummaryCard
        label="Runs completed"
        value={String(summary.runsCompleted)}
        detail={`of ${summary.runsTotal} ${summary.runsTotal === 1 ? 'run' : 'runs'} started`}
      />
      <SummaryCard label="Pass rate" value={percentText(summary.passRatePercent)} detail={passRateDetail(summary)} />
      <SummaryCard
        label="Average score"
        value={percentText(summary.averageScorePercent)}
        detail={summary.averageScorePercent === null ? 'No completed runs yet' : 'Across completed runs'}
      />
    </SimpleGrid>
  );
}

function RecommendationCard({ scenario }: { scenario: RecommendedScenario }) {
  const titleId = `recommended-${scenario.id}`;
  return (
    <Card component="article" withBorder radius="md" padding="md" aria-labelledby={titleId}>
      <Stack gap="xs" h="100%">
        <Group gap="xs">
          <Badge color={scenarioTypeColor(scenario.type)} variant="light" radius="sm">
            {scenario.type}
          </Badge>
          <Text size="xs" c="dimmed" className="tabular-nums">
            Difficulty {scenario.difficulty}/5 · {DIFFICULTY_LABELS[scenario.difficulty] ?? ''}
          </Text>
        </Group>
        <Title order={3} size="h5" id={titleId}>
          {scenario.name}
        </Title>
        <Text size="sm" c="dimmed" style={{ flexGrow: 1 }}>
          {scenario.reason}
        </Text>
        <Button
          component={Link}
          to={paths.simulation(scenario.id)}
          variant="light"
          size="sm"
          leftSection={<IconPlayerPlay size={16} aria-hidden />}
          aria-label={`Start ${scenario.name}`}
        >
          Start
        </Button>
      </Stack>
    </Card>
  );
}

function Recommendations({ progress }: { progress: UserProgress }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="recommended-heading">
      <Title order={2} size="h3" id="recommended-heading">
        Recommended next
      </Title>
      {progress.recommendations.length === 0 ? (
        <Text c="dimmed">
          You have completed every scenario in the library. New scenarios will appear here when they are published.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {progress.recommendations.map((scenario) => (
            <RecommendationCard key={scenario.id} scenario={scenario} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function RunRow({ run, open, onToggle }: { run: ProgressRun; open: boolean; onToggle: () => void }) {
  const timelineId = `timeline-${run.id}`;
  return (
    <Fragment>
      <Table.Tr data-run-id={run.id}>
        <Table.Td>
          <Text size="sm" fw={600}>
            {run.scenarioName}
          </Text>
          <Text size="xs" c="dimmed">
            <time dateTime={run.startedAt} title={formatDateTime(run.startedAt)}>
              {formatRelative(run.startedAt)}
            </time>
          </Text>
        </Table.Td>
        <Table.Td className={classes.numeric}>{formatScorePercent(run.scorePercent)}</Table.Td>
        <Table.Td>
          <ResultBadge result={run.result} />
        </Table.Td>
        <Table.Td>{runStatusLabel(run.completed)}</Table.Td>
        <Table.Td>
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={onToggle}
            aria-expanded={open}
            aria-controls={open ? timelineId : undefined}
            aria-label={`${open ? 'Hide' : 'Timeline'}: ${run.scenarioName}`}
          >
            {open ? 'Hide' : 'Timeline'}
          </Button>
        </Table.Td>
        <Table.Td>
          {run.resumable ? (
            <Button
              component={Link}
              to={paths.simulation(run.scenarioId, { simId: run.id, resume: run.status === 'ended' })}
              size="compact-sm"
              variant="light"
              aria-label={`Resume: ${run.scenarioName}`}
            >
              Resume
            </Button>
          ) : (
            <Text span size="sm" c="dimmed">
              N/A
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          {run.status !== 'in_progress' ? (
            <Anchor component={Link} to={paths.runReport(run.id)} size="sm" aria-label={`Report: ${run.scenarioName}`}>
              Report
            </Anchor>
          ) : (
            <Text span size="sm" c="dimmed">
              -
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr className={classes.timelineRow}>
          <Table.Td colSpan={7}>
            <div className={classes.timelinePanel}>
              <DecisionTimeline id={timelineId} timeline={run.timeline} scenarioName={run.scenarioName} />
            </div>
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  );
}

function RunsTable({ runs }: { runs: ProgressRun[] }) {
  const [openRunId, setOpenRunId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(runs.length / PAGE_SIZE));
  const shown = runs.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={720} className={classes.runsScroll}>
        <Table verticalSpacing="xs" aria-labelledby="runs-heading">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Scenario</Table.Th>
              <Table.Th className={classes.numeric}>Score (%)</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Timeline</Table.Th>
              <Table.Th>Resume</Table.Th>
              <Table.Th>Report</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((run) => (
              <RunRow
                key={run.id}
                run={run}
                open={openRunId === run.id}
                onToggle={() => setOpenRunId((current) => (current === run.id ? null : run.id))}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed" className="tabular-nums">
            Runs {(page - 1) * PAGE_SIZE + 1}–{Math.min(page * PAGE_SIZE, runs.length)} of {runs.length}
          </Text>
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      )}
    </Stack>
  );
}

function EmptyRuns() {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
          <IconTargetArrow size={26} />
        </ThemeIcon>
        <Title order={3} size="h4">
          No training runs yet
        </Title>
        <Text>Pick a scenario and play it through: your score, result and decisions will appear here.</Text>
        <Button component={Link} to={paths.scenarios} leftSection={<IconListDetails size={16} aria-hidden />}>
          Choose a scenario
        </Button>
      </Stack>
    </Paper>
  );
}

function DashboardSkeleton() {
  return (
    <Stack gap="lg" role="status" aria-busy="true" aria-label="Loading your progress">
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height={104} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton height={160} radius="md" />
      <Skeleton height={240} radius="md" />
    </Stack>
  );
}

export default function DashboardPage() {
  const { user } = useSession();
  const progress = useUserProgress(user?.email);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Progress Dashboard</Title>
        <Text c="dimmed">Your training runs, how you scored, and what to practise next.</Text>
      </div>

      {progress.isPending ? (
        <DashboardSkeleton />
      ) : progress.isError ? (
        <LoadError
          title="Your progress could not be loaded"
          error={progress.error}
          onRetry={() => void progress.refetch()}
        />
      ) : (
        <>
          <Summary progress={progress.data} />
          <Recommendations progress={progress.data} />
          <Stack gap="sm" component="section" aria-labelledby="runs-heading">
            <Group justify="space-between" align="baseline">
              <Title order={2} size="h3" id="runs-heading">
                Your runs
              </Title>
              <Anchor component={Link} to={paths.skills} size="sm">
                <Group gap={4} component="span">
                  <IconReportAnalytics size={16} aria-hidden />
                  ATT&amp;CK skill map
                </Group>
              </Anchor>
            </Group>
            {progress.data.runs.length === 0 ? <EmptyRuns /> : <RunsTable runs={progress.data.runs} />}
          </Stack>
        </>
      )}
    </Stack>
  );
}
