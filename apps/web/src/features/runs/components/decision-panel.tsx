import { MAX_ANSWER_TIME_MS, type PlayerStep, type RunAnswer } from '@tradecraft/shared';
import { Alert, Button, Collapse, Group, Kbd, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowRight,
  IconBulb,
  IconCircleCheck,
  IconCircleX,
  IconCheck,
  IconRotateClockwise,
  IconX,
} from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useAnswerStep } from '../api/answer-step';
import { useMoveOn } from '../api/move-on';
import classes from './runs.module.css';

interface DecisionPanelProps {
  runId: string;
  step: PlayerStep;
  answer: RunAnswer | null;
}

/** Keys typed into a field or a dialog are not player shortcuts. */
function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]') !== null;
}

/**
 * The options, the hint and, once answered, the server's feedback and the way on. Keyboard: 1-6 choose an
 * option while the step is unanswered; Enter moves on after an answer.
 */
export function DecisionPanel({ runId, step, answer }: DecisionPanelProps) {
  const [shownAt] = useState(() => performance.now());
  const [showHint, setShowHint] = useState(false);
  const hintId = useId();
  const feedbackRef = useRef<HTMLDivElement>(null);
  const answerStep = useAnswerStep(runId);
  const moveOn = useMoveOn(runId);
  const busy = answerStep.isPending || moveOn.isPending;
  const answered = answer !== null;

  const choose = (optionIndex: number) => {
    if (busy || answered) return;
    const timeMs = Math.min(MAX_ANSWER_TIME_MS, Math.max(0, Math.round(performance.now() - shownAt)));
    answerStep.mutate({ stepId: step.id, optionIndex, timeMs });
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

  // The shortcuts read the latest state through a ref, so the listener is added once.
  const keys = useRef({ choose, goOn, answered, optionCount: step.options.length });
  useEffect(() => {
    keys.current = { choose, goOn, answered, optionCount: step.options.length };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
      if (isTypingTarget(event.target)) return;
      const current = keys.current;
      if (!current.answered && /^[1-6]$/.test(event.key)) {
        const index = Number(event.key) - 1;
        if (index < current.optionCount) {
          event.preventDefault();
          current.choose(index);
        }
      } else if (current.answered && event.key === 'Enter') {
        // A focused button or link already acts on Enter by itself.
        if (event.target instanceof Element && event.target.closest('button, a')) return;
        event.preventDefault();
        current.goOn();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const error = answerStep.error ?? moveOn.error;
  const headline = answer?.feedback.split('\n')[0];
  const explanation = answer?.feedback.split('\n').slice(1).join('\n');

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        <Title order={2} size="h4">
          Your decision
        </Title>

        {!answered ? (
          <Stack gap="xs" role="group" aria-label="Options">
            {step.options.map((option, index) => (
              <Button
                key={index}
                variant="default"
                size="md"
                fullWidth
                classNames={{ root: classes.option, inner: classes.optionInner, label: classes.optionLabel }}
                leftSection={<Kbd aria-hidden>{index + 1}</Kbd>}
                disabled={busy}
                onClick={() => choose(index)}
              >
                {option.text}
              </Button>
            ))}
            <Text size="xs" c="dimmed" visibleFrom="sm">
              Press 1 to {step.options.length} to choose an option.
            </Text>
          </Stack>
        ) : (
          <Stack component="ol" gap="xs" className={classes.plainList} aria-label="Options">
            {step.options.map((option, index) => {
              const state = index === answer.correctOptionIndex ? 'correct' : index === answer.optionIndex ? 'wrong' : 'other';
              const chosen = index === answer.optionIndex;
              return (
                <li key={index} className={classes.lockedOption} data-state={state}>
                  <Group gap="sm" wrap="nowrap" align="flex-start">
                    <ThemeIcon
                      variant={state === 'other' ? 'default' : 'filled'}
                      color={state === 'correct' ? 'green.8' : state === 'wrong' ? 'red.8' : 'gray'}
                      radius="xl"
                      size="sm"
                      mt={2}
                      aria-hidden
                    >
                      {state === 'wrong' ? <IconX size={14} /> : state === 'correct' ? <IconCheck size={14} /> : null}
                    </ThemeIcon>
                    <Stack gap={0} miw={0}>
                      <Text size="sm" className={classes.preWrap}>
                        {option.text}
                      </Text>
                      {(chosen || state === 'correct') && (
                        <Text size="xs" fw={600}>
                          {[chosen ? 'Your answer' : null, state === 'correct' ? 'Correct answer' : null].filter(Boolean).join(' · ')}
                        </Text>
                      )}
                    </Stack>
                  </Group>
                </li>
              );
            })}
          </Stack>
        )}

        {!answered && step.hint && (
          <Stack gap="xs">
            <Button
              variant="subtle"
              size="compact-md"
              leftSection={<IconBulb size={18} aria-hidden />}
              aria-expanded={showHint}
              aria-controls={hintId}
              onClick={() => setShowHint((shown) => !shown)}
              style={{ alignSelf: 'flex-start' }}
            >
              {showHint ? 'Hide Hint' : 'Show Hint'}
            </Button>
            <Collapse expanded={showHint} id={hintId}>
              <Alert variant="light" color="yellow" icon={<IconBulb />} role="note" aria-label="Hint">
                <Text size="sm" className={classes.preWrap}>
                  {step.hint}
                </Text>
              </Alert>
            </Collapse>
          </Stack>
        )}

        <div aria-live="polite">
          {answer && (
            <Alert
              ref={feedbackRef}
              tabIndex={-1}
              role="group"
              aria-label="Feedback"
              className={classes.feedback}
              variant="light"
              color={answer.correct ? 'green' : 'red'}
              icon={answer.correct ? <IconCircleCheck /> : <IconCircleX />}
            >
              <Text fw={600} className={classes.preWrap}>
                {headline}
              </Text>
              {explanation && (
                <Text size="sm" mt={4} className={classes.preWrap}>
                  {explanation}
                </Text>
              )}
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
              rightSection={answer.nextAction === 'retry' ? <IconRotateClockwise size={18} /> : <IconArrowRight size={18} />}
              style={{ alignSelf: 'flex-start' }}
            >
              {answer.nextAction === 'retry' ? 'Retry' : 'Next'}
            </Button>
            <Text size="xs" c="dimmed">
              {answer.nextAction === 'retry'
                ? 'Retry stays on this step so you can answer it again. Press Enter to continue.'
                : answer.nextAction === 'finish'
                  ? 'That was the last step: Next shows your results. Press Enter to continue.'
                  : 'Press Enter to continue.'}
            </Text>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
