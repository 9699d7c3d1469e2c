import { formatCredit, RUN_MESSAGES, STEP_KIND_LABELS, type PlayerStep, type RunState } from '@tradecraft/shared';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconArrowLeft, IconEye, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { runQueryKey, useRun } from '../api/get-run';
import { resumeRun } from '../api/resume-run';
import { startRun } from '../api/start-run';
import { createStartOnce } from '../api/start-run-once';
import { DecisionPanel } from '../components/decision-panel';
import { DecisionTimeline } from '../components/decision-timeline';
import { EndRunButton } from '../components/end-run-button';
import { CaseFileButton } from '../components/case-file/case-file-button';
import { EndScreen } from '../components/end-screen';
import classes from '../../../ui/player/player.module.css';
import { ScoreBar } from '../components/score-bar';
import { StepIntel, StepPanel } from '../../../ui/player/step-panel';
import { stepCounterText } from '../../../ui/player/step-counter';

import { rememberStartedRun } from '../started-runs';

/**
 * /simulation/:scenarioId — without `simId` a run starts (or the trainee's unfinished run of the scenario
 * continues; `startOver=1` ends it and starts a new one) and the address becomes `?simId=<run>`, so a reload
 * resumes instead of starting again. With `simId` the run resumes exactly where the server has it; `resume=1`
 * puts an ended run back in progress at the step where it stopped.
 * The old `step` parameter is accepted and ignored: the server's state of the run wins.
 */
export default function SimulationPage() {
  const { scenarioId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const simId = searchParams.get('simId');
  return simId ? (
    <RunView key={simId} scenarioId={scenarioId} runId={simId} resume={searchParams.get('resume') === '1'} />
  ) : (
    <StartRunView scenarioId={scenarioId} startOver={searchParams.get('startOver') === '1'} />
  );
}

function LoadingScenario() {
  return (
    <Center mih={240} role="status">
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text>Loading scenario...</Text>
      </Stack>
    </Center>
  );
}

function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  // A 4xx (unknown or deleted scenario, someone else's run) will not change by asking again.
  const retryable = !(error instanceof ApiError && error.status >= 400 && error.status < 500);
  return (
    <Stack gap="md" maw={640}>
      <Stack gap={4}>
        <Title order={1}>Simulation</Title>
        <Text c="dimmed">The simulation could not be loaded.</Text>
      </Stack>
      <Alert color="red" icon={<IconAlertCircle />} role="alert">
        {error.message}
      </Alert>
      <Group gap="sm">
        <Button component={Link} to={paths.scenarios} leftSection={<IconArrowLeft size={18} aria-hidden />}>
          Back to scenarios
        </Button>
        {retryable && (
          <Button variant="default" onClick={onRetry} leftSection={<IconRefresh size={18} aria-hidden />}>
            Retry
          </Button>
        )}
      </Group>
    </Stack>
  );
}

// One start request per visit, keyed by the navigation entry; forgotten once it settles.
const startRequests = createStartOnce<RunState>();

function StartRunView({ scenarioId, startOver }: { scenarioId: string; startOver: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [attempt, setAttempt] = useState(0);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    const key = `${location.key}|${scenarioId}|${attempt}|${startOver}`;
    const request = startRequests.start(key, () =>
      startRun(scenarioId, { startOver }).then(({ run }) => {
        rememberStartedRun(run.id);
        return run;
      }),
    );
    let current = true;
    request.then(
      (run) => {
        if (!current) return;
        queryClient.setQueryData(runQueryKey(run.id), { run });
        void navigate(paths.simulation(scenarioId, { simId: run.id }), { replace: true });
      },
      (failure: unknown) => {
        if (current) setError(failure instanceof Error ? failure : new Error(String(failure)));
      },
    );
    return () => {
      current = false;
    };
  }, [location.key, scenarioId, startOver, attempt, navigate, queryClient]);

  if (error) {
    return (
      <LoadError
        error={error}
        onRetry={() => {
          setError(null);
          setAttempt((value) => value + 1);
        }}
      />
    );
  }
  return <LoadingScenario />;
}

// One resume request per visit, like the starts.
const resumeRequests = createStartOnce<RunState>();

function RunView({ scenarioId, runId, resume }: { scenarioId: string; runId: string; resume: boolean }) {
  const query = useRun(runId);
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [resumeError, setResumeError] = useState<Error | null>(null);
  const run = query.data?.run;
  usePageTitle(run?.scenarioName);

  // Resume from a list (the dashboard): an ended run goes back in progress where it stopped; the address then
  // drops `resume`, so a reload only reads the run.
  const wantsResume = resume && run !== undefined && run.status === 'ended' && run.resumable && !run.readOnly;
  useEffect(() => {
    if (!resume || !run) return;
    if (!wantsResume) {
      void navigate(paths.simulation(run.scenarioId, { simId: run.id }), { replace: true });
      return;
    }
    let current = true;
    resumeRequests
      .start(`${location.key}|${runId}`, () => resumeRun(runId).then((response) => response.run))
      .then(
        (resumed) => {
          queryClient.setQueryData(runQueryKey(resumed.id), { run: resumed });
          void queryClient.invalidateQueries({ queryKey: ['progress'] });
          if (current) void navigate(paths.simulation(resumed.scenarioId, { simId: resumed.id }), { replace: true });
        },
        (failure: unknown) => {
          if (current) setResumeError(failure instanceof Error ? failure : new Error(String(failure)));
        },
      );
    return () => {
      current = false;
    };
  }, [resume, run, wantsResume, runId, location.key, navigate, queryClient]);

  // A run opened under another scenario's address: show it under its own.
  useEffect(() => {
    if (run && run.scenarioId !== scenarioId) {
      void navigate(paths.simulation(run.scenarioId, { simId: run.id }), { replace: true });
    }
  }, [run, scenarioId, navigate]);

  if (resumeError) {
    return (
      <LoadError
        error={resumeError}
        onRetry={() => {
          setResumeError(null);
          void navigate(paths.simulation(scenarioId, { simId: runId }), { replace: true });
        }}
      />
    );
  }
  if (!run || wantsResume) {
    if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
    return <LoadingScenario />;
  }
  if (run.status !== 'in_progress') return <EndScreen run={run} />;
  if (!run.currentStep) return <StoppedRun run={run} />;
  return <Player run={run} step={run.currentStep} />;
}

/** Step kinds whose controls need the page's width: the decision goes under the step instead of beside it. */
const WIDE_KINDS: ReadonlySet<PlayerStep['kind']> = new Set(['ach', 'write']);

function Player({ run, step }: { run: RunState; step: PlayerStep }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // A new question is a new step, or the same step again after a Retry: the decision panel starts afresh.
  const earlierAnswers = run.timeline.filter((entry) => entry.stepId === step.id).length - (run.answer ? 1 : 0);
  const questionKey = `${step.id}:${earlierAnswers}`;
  const firstQuestion = useRef(questionKey);
  useEffect(() => {
    if (questionKey !== firstQuestion.current) headingRef.current?.focus();
  }, [questionKey]);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
        <Stack gap={4} miw={0} style={{ flex: '1 1 320px' }}>
          {/* While playing on a phone the title takes one line and the blurb steps aside for the question. */}
          <Title order={1} className={classes.playerTitle} title={run.scenarioName}>
            {run.scenarioName}
          </Title>
          <Text c="dimmed" visibleFrom="sm">
            Read the intel, choose your response and learn from the feedback. Every answer is saved as you go.
          </Text>
        </Stack>
        {!run.readOnly && (
          <Group gap="xs" wrap="nowrap">
            <CaseFileButton runId={run.id} />
            <EndRunButton runId={run.id} menuOnPhone />
          </Group>
        )}
      </Group>
      <ScoreBar run={run} />
      {/* A wide step (a matrix, a written answer) puts the decision under the step at the page's width; on a
          phone the question comes before the intel. */}
      <div className={classes.playerGrid} data-wide={WIDE_KINDS.has(step.kind) || undefined}>
        <div className={classes.stepArea}>
          <StepPanel
            step={step}
            counter={stepCounterText(run.stepNumber, run.stepsLeftOnBestPath)}
            headingRef={headingRef}
            intel={false}
          />
        </div>
        <div className={classes.intelArea}>
          <StepIntel step={step} />
        </div>
        <div className={classes.decisionArea}>
          <div className={classes.decisionColumn}>
            {run.readOnly ? (
              <ReadOnlyOptions step={step} />
            ) : (
              <DecisionPanel key={questionKey} runId={run.id} step={step} answer={run.answer} />
            )}
          </div>
        </div>
      </div>
    </Stack>
  );
}

/** An admin reading someone else's run sees the step and its kind, not the controls. */
function ReadOnlyOptions({ step }: { step: PlayerStep }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Alert variant="light" color="gray" icon={<IconEye />}>
          You are viewing another trainee's run. Only they can answer.
        </Alert>
        <Text size="sm" fw={600}>
          {STEP_KIND_LABELS[step.kind]}
        </Text>
        {step.options.length > 0 && (
          <Stack component="ol" gap="xs" className={classes.plainList} aria-label="Options">
            {step.options.map((option, index) => (
              <li key={index} className={classes.lockedOption}>
                <Text size="sm" className={classes.preWrap}>
                  {index + 1}. {option.text}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** A run in progress that cannot go on: its scenario was deleted (or its current step is gone). */
function StoppedRun({ run }: { run: RunState }) {
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>{run.scenarioName}</Title>
        <Text c="dimmed">This run cannot continue. Your answers so far are saved.</Text>
      </Stack>
      <Alert color="orange" variant="light" icon={<IconAlertTriangle />} role="alert">
        <Text fw={700}>{run.scenarioDeleted ? RUN_MESSAGES.scenarioDeleted : RUN_MESSAGES.scenarioChanged}</Text>
        <Text size="sm">
          Score so far: {formatCredit(run.score)} ({run.scorePercent}%). End the run to close it, or go back to the
          scenarios.
        </Text>
      </Alert>
      <Group gap="sm">
        {!run.readOnly && <EndRunButton runId={run.id} />}
        <Button component={Link} to={paths.scenarios} leftSection={<IconArrowLeft size={18} aria-hidden />}>
          Back to scenarios
        </Button>
      </Group>
      <Stack gap="xs" component="section" aria-labelledby="stopped-timeline-heading">
        <Title order={2} size="h3" id="stopped-timeline-heading">
          Decision Timeline
        </Title>
        <DecisionTimeline timeline={run.timeline} />
      </Stack>
    </Stack>
  );
}
