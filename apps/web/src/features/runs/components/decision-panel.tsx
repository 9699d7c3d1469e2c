import {
  formatCredit,
  MAX_ANSWER_TIME_MS,
  STEP_KIND_LABELS,
  verdictWords,
  type PlayerStep,
  type RunAnswer,
  type StepResult,
} from '@tradecraft/shared';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowRight,
  IconCircleCheck,
  IconCircleHalf2,
  IconCircleX,
  IconHourglass,
  IconRotateClockwise,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useAnswerStep } from '../api/answer-step';
import { useMoveOn } from '../api/move-on';
import { useOpenHint } from '../api/open-hint';
import type { AnswerFields } from '../../../ui/player/controls/control-props';
import { isTypingTarget } from '../../../ui/player/controls/choice-control';
import { StepControl } from '../../../ui/player/controls/step-control';
import { formatShare } from '../../../ui/credit';
import { HintButton } from '../../../ui/player/hint-button';
import classes from '../../../ui/player/player.module.css';

interface DecisionPanelProps {
  runId: string;
  step: PlayerStep;
  answer: RunAnswer | null;
}

const awaitingReview = (result: StepResult) => result.kind === 'write' && result.review?.status === 'pending';

export function feedbackLook(result: StepResult) {
  if (awaitingReview(result)) return { color: 'blue', icon: <IconHourglass /> };
  if (result.verdict === 'right') return { color: 'green', icon: <IconCircleCheck /> };
  if (result.verdict === 'partial') return { color: 'yellow', icon: <IconCircleHalf2 /> };
  return { color: 'red', icon: <IconCircleX /> };
}

/** The credit line under the headline: what this submission earned, and why it is less than it might be. */
export function creditText(result: StepResult, hintCost: number): string {
  if (!result.scored) return 'This step is not scored.';
  if (!result.firstSubmission) return 'Only the first answer on a visit earns credit: this one earns nothing.';
  const parts = [`Credit earned: ${formatCredit(result.credit)} of 1`];
  if (result.hintCharged)
    parts.push(`after the hint's ${formatShare(hintCost)} charge (${formatCredit(result.rawCredit)} before it)`);
  if (awaitingReview(result))
    return `${parts.join(', ')} so far, from the automatic checks; an instructor grades the rest.`;
  return `${parts.join(', ')}.`;
}

/**
 * The server's feedback as printed once: its headline (bold), then each explanation paragraph once (the headline
 * text already carries the step's explanation for most kinds, and the chosen option's for a choice).
 */
export function feedbackParagraphs(text: string, explanation: string | null) {
  const [headline = '', ...rest] = text.split('\n');
  const paragraphs = rest.map((line) => line.trim()).filter((line) => line !== '');
  const extra = explanation?.trim();
  if (extra && !paragraphs.includes(extra) && headline.trim() !== extra) paragraphs.push(extra);
  return { headline, paragraphs: [...new Set(paragraphs)] };
}

/**
 * The step's control, the hint and, once answered, the server's feedback and the way on. Keyboard: a choice
 * step takes 1-8; Enter moves on after an answer.
 */
export function DecisionPanel({ runId, step, answer }: DecisionPanelProps) {
  const [shownAt] = useState(() => performance.now());
  const feedbackRef = useRef<HTMLDivElement>(null);
  const answerStep = useAnswerStep(runId);
  const moveOn = useMoveOn(runId);
  const openHint = useOpenHint(runId);
  const busy = answerStep.isPending || moveOn.isPending;
  const answered = answer !== null;

  const submit = (fields: AnswerFields) => {
    if (busy || answered) return;
    const timeMs = Math.min(MAX_ANSWER_TIME_MS, Math.max(0, Math.round(performance.now() - shownAt)));
    answerStep.mutate({ ...fields, kind: step.kind, stepId: step.id, timeMs });
  };
  const goOn = () => {
    if (busy || !answered) return;
    moveOn.mutate();
  };

  // Screen readers read the feedback as soon as it shows (not on resume, where nothing was just answered).
  const justAnswered = answered && answerStep.isSuccess;
  useEffect(() => {
    if (justAnswered) feedbackRef.current?.focus();
  }, [justAnswered]);

  // Enter moves on; the listener reads the latest state through a ref, so it is added once.
  const keys = useRef({ goOn, answered });
  useEffect(() => {
    keys.current = { goOn, answered };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
      if (!keys.current.answered || event.key !== 'Enter' || isTypingTarget(event.target)) return;
      // A focused button or link already acts on Enter by itself.
      if (event.target instanceof Element && event.target.closest('button, a')) return;
      event.preventDefault();
      keys.current.goOn();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const error = answerStep.error ?? moveOn.error ?? openHint.error;
  const result = answer?.result ?? null;
  const look = result ? feedbackLook(result) : null;
  const feedback = answer ? feedbackParagraphs(answer.feedback, result?.explanation ?? null) : null;
  const question = (
    <>
      <StepControl step={step} result={result} busy={busy} onSubmit={submit} />
      <HintButton
        hint={step.hintState}
        answered={answered}
        busy={openHint.isPending}
        onOpen={() => openHint.mutate(step.id)}
      />
    </>
  );

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        <Group gap="xs" justify="space-between">
          <Title order={2} size="h4">
            Your decision
          </Title>
          <Badge variant="light" color="gray">
            {STEP_KIND_LABELS[step.kind]}
            {step.scored ? '' : ' · not scored'}
          </Badge>
        </Group>

        {/* Once answered, the verdict and the way on come first and the key, element by element, follows. */}
        {!answered && question}

        <div aria-live="polite">
          {answer && result && look && feedback && (
            <Alert
              ref={feedbackRef}
              tabIndex={-1}
              role="group"
              aria-label="Feedback"
              className={classes.feedback}
              variant="light"
              color={look.color}
              icon={look.icon}
            >
              <Text fw={600} className={classes.preWrap}>
                {feedback.headline}
              </Text>
              <Text size="sm" mt={4} className="tabular-nums">
                {verdictWords(answer.verdict, answer.hintUsed)}. {creditText(result, step.hintState.cost)}
              </Text>
              {feedback.paragraphs.map((paragraph) => (
                <Text key={paragraph} size="sm" mt={4} className={classes.preWrap}>
                  {paragraph}
                </Text>
              ))}
            </Alert>
          )}
        </div>

        {error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert">
            {error.message}
          </Alert>
        )}

        {answer && (
          <Stack gap={6}>
            <Button
              size="md"
              onClick={goOn}
              loading={moveOn.isPending}
              rightSection={
                answer.nextAction === 'retry' ? <IconRotateClockwise size={18} /> : <IconArrowRight size={18} />
              }
              style={{ alignSelf: 'flex-start' }}
            >
              {answer.nextAction === 'retry' ? 'Retry' : 'Next'}
            </Button>
            <Text size="xs" c="dimmed">
              {answer.nextAction === 'retry'
                ? 'Retry stays on this step so you can answer it again (a second answer earns no credit). Press Enter to continue.'
                : answer.nextAction === 'finish'
                  ? 'That was the last step: Next shows your results. Press Enter to continue.'
                  : 'Press Enter to continue.'}
            </Text>
          </Stack>
        )}

        {answered && question}
      </Stack>
    </Paper>
  );
}
