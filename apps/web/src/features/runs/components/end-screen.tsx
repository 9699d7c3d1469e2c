import { formatCredit, RUN_MESSAGES, type RunState } from '@tradecraft/shared';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowLeft,
  IconHourglass,
  IconPlayerPlay,
  IconPlayerTrackNext,
  IconRefresh,
  IconReportAnalytics,
} from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useDisclosure } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import { StartOverDialog } from '../../../ui/start-over-dialog';
import { paths } from '../../../lib/paths';
import { AnalystSkillsTable } from '../../../ui/analyst-skills-table';
import { useResumeRun } from '../api/resume-run';
import { AnswersBesideBest, PathComparison, TechniquesMet } from './debrief';
import { DecisionTimeline } from './decision-timeline';
import { RunNotesSection } from './case-file/run-notes-section';
import classes from '../../../ui/player/player.module.css';

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text className={`tabular-nums ${classes.statValue}`}>{value}</Text>
      {note && (
        <Text size="xs" c="dimmed" className="tabular-nums">
          {note}
        </Text>
      )}
    </Paper>
  );
}

const afterRetryNote = (count: number) => `${count} after Retry not counted`;

/** An ended run that can still go on: starting again is starting over, and asks first. */
function StartOverButton({ scenarioId, scenarioName }: { scenarioId: string; scenarioName: string }) {
  const [opened, { open, close }] = useDisclosure(false);
  const navigate = useNavigate();
  return (
    <>
      <Button variant="default" onClick={open} leftSection={<IconRefresh size={18} aria-hidden />}>
        Start over
      </Button>
      <StartOverDialog
        opened={opened}
        scenarioName={scenarioName}
        onClose={close}
        onConfirm={() => {
          close();
          void navigate(paths.simulation(scenarioId, { startOver: true }));
        }}
      />
    </>
  );
}

/** An ended run that is still the scenario's latest: Resume goes on at the step where it stopped. */
function ResumePanel({ runId }: { runId: string }) {
  const resume = useResumeRun(runId);
  return (
    <Alert variant="light" color="blue" icon={<IconPlayerTrackNext />} title="This run can go on">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">Resume continues at the step where you ended it, with your answers and score so far.</Text>
        <Button
          size="sm"
          onClick={() => resume.mutate()}
          loading={resume.isPending}
          leftSection={<IconPlayerTrackNext size={16} aria-hidden />}
        >
          Resume this run
        </Button>
        {resume.error && (
          <Text size="sm" c="red.8" role="alert">
            <IconAlertCircle size={14} aria-hidden /> {resume.error.message}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * The end of a run: how it went, then the debrief (every technique met, each answer beside the best one with
 * practice for a missed step, the path taken beside the best path), every decision, and where to go next.
 */
export function EndScreen({ run }: { run: RunState }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const complete = run.status === 'completed';
  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Title order={1} ref={headingRef} tabIndex={-1} className={classes.focusTarget}>
          {complete ? RUN_MESSAGES.complete : RUN_MESSAGES.ended}
        </Title>
        <Text c="dimmed">
          {run.scenarioName}:{' '}
          {complete ? 'you reached the end of the scenario.' : 'the run was ended before the last step.'}
        </Text>
      </Stack>

      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm">
        <Stat label="Score" value={`${formatCredit(run.score)} / ${run.percentBase}`} note={`${run.scorePercent}%`} />
        <Stat
          label="Result"
          value={run.result}
          note={
            run.awaitingReview
              ? `${run.pendingReviews} written ${run.pendingReviews === 1 ? 'answer' : 'answers'} to grade`
              : undefined
          }
        />
        <Stat label="Duration" value={`${run.durationSeconds} ${run.durationSeconds === 1 ? 'second' : 'seconds'}`} />
        <Stat
          label="Right answers"
          value={String(run.correctCount)}
          note={
            run.verdicts.afterRetry > 0 ? `first answers; ${afterRetryNote(run.verdicts.afterRetry)}` : 'first answers'
          }
        />
        <Stat
          label="Missed steps"
          value={String(run.incorrectCount)}
          note={`${run.verdicts.partlyRight} partly right, ${run.verdicts.wrong} wrong`}
        />
      </SimpleGrid>

      {run.status === 'ended' && run.resumable && !run.readOnly && <ResumePanel runId={run.id} />}

      {run.awaitingReview && (
        <Alert variant="light" color="blue" icon={<IconHourglass />} title="Awaiting review">
          An instructor grades your written {run.pendingReviews === 1 ? 'answer' : 'answers'} by the rubric; the score
          and the result update then, and the bell tells you.
        </Alert>
      )}

      {run.skillScores.some((skill) => skill.attempts > 0) && (
        <Stack gap="xs" component="section" aria-labelledby="analyst-skills-heading">
          <Title order={2} size="h3" id="analyst-skills-heading">
            Analyst skills
          </Title>
          <Text size="sm" c="dimmed">
            Credit earned per skill on the first answer of each scored step.
          </Text>
          <AnalystSkillsTable skills={run.skillScores} emptyText="No scored step trained an analyst skill." />
        </Stack>
      )}

      <Group gap="sm">
        <Button
          component={Link}
          to={paths.runReport(run.id)}
          leftSection={<IconReportAnalytics size={18} aria-hidden />}
        >
          View after-action report
        </Button>
        {!run.scenarioDeleted &&
          !run.readOnly &&
          (run.resumable ? (
            <StartOverButton scenarioId={run.scenarioId} scenarioName={run.scenarioName} />
          ) : (
            <Button
              component={Link}
              to={paths.simulation(run.scenarioId)}
              variant="default"
              leftSection={<IconPlayerPlay size={18} aria-hidden />}
            >
              Play again
            </Button>
          ))}
        <Button
          component={Link}
          to={paths.scenarios}
          variant="default"
          leftSection={<IconArrowLeft size={18} aria-hidden />}
        >
          Back to scenarios
        </Button>
      </Group>

      {run.debrief && (
        <>
          <TechniquesMet debrief={run.debrief} />
          <AnswersBesideBest run={run} debrief={run.debrief} />
          <PathComparison debrief={run.debrief} />
          {!run.readOnly && <RunNotesSection runId={run.id} />}
        </>
      )}

      <Stack gap="xs" component="section" aria-labelledby="timeline-heading">
        <Title order={2} size="h3" id="timeline-heading">
          Decision Timeline
        </Title>
        <DecisionTimeline timeline={run.timeline} />
      </Stack>
    </Stack>
  );
}
