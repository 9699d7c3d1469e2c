import { formatCredit, MAX_ANSWER_TIME_MS, type PracticeState } from '@tradecraft/shared';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useAnswerPractice } from '../api/practice-step';
import type { AnswerFields } from '../../../ui/player/controls/control-props';
import { StepControl } from '../../../ui/player/controls/step-control';
import { StepPanel } from '../../../ui/player/step-panel';
import classes from '../../../ui/player/player.module.css';
import { feedbackLook } from './decision-panel';

export const PRACTICE_NOTE = "Practice is recorded apart from the run: it does not change this run's score.";

/**
 * "Practise this step", in place on the end screen: the missed step as the player shows it, one answer, the
 * server's verdict with the key, and a reminder that the run's score stays what it was.
 */
export function PracticePanel({
  practice: started,
  scoreText,
  onClose,
}: {
  practice: PracticeState;
  scoreText: string;
  onClose: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const feedbackRef = useRef<HTMLDivElement>(null);
  const [shownAt] = useState(() => performance.now());
  const answer = useAnswerPractice(started.runId, started.id);
  const practice = answer.data?.practice ?? started;
  const result = practice.answer?.result ?? null;
  const look = result ? feedbackLook(result) : null;

  useEffect(() => headingRef.current?.focus(), []);
  const answered = practice.answer !== null;
  useEffect(() => {
    if (answered) feedbackRef.current?.focus();
  }, [answered]);

  const submit = (fields: AnswerFields) => {
    if (answer.isPending || answered) return;
    const timeMs = Math.min(MAX_ANSWER_TIME_MS, Math.max(0, Math.round(performance.now() - shownAt)));
    answer.mutate({ ...fields, kind: practice.step.kind, stepId: practice.step.id, timeMs });
  };

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-label={`Practice: ${practice.step.title}`}
      className={classes.practice}
    >
      <Stack gap="md">
        <Alert variant="light" color="blue" icon={<IconInfoCircle />} p="xs">
          {PRACTICE_NOTE}
        </Alert>
        <StepPanel step={practice.step} counter="Practice" headingRef={headingRef} headingOrder={3} />
        <StepControl step={practice.step} result={result} busy={answer.isPending} onSubmit={submit} />
        <div aria-live="polite">
          {practice.answer && look && (
            <Alert
              ref={feedbackRef}
              tabIndex={-1}
              role="group"
              aria-label="Practice result"
              className={classes.feedback}
              variant="light"
              color={look.color}
              icon={look.icon}
            >
              <Text fw={600} className={classes.preWrap}>
                {practice.answer.feedback}
              </Text>
              <Text size="sm" mt={4} className="tabular-nums">
                Practice credit: {formatCredit(practice.answer.credit)} of 1. Not counted: the run's score stays{' '}
                {scoreText}.
              </Text>
              {practice.answer.result.explanation && (
                <Text size="sm" mt={4} className={classes.preWrap}>
                  {practice.answer.result.explanation}
                </Text>
              )}
            </Alert>
          )}
        </div>
        {answer.error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert">
            {answer.error.message}
          </Alert>
        )}
        <Group>
          <Button variant="default" onClick={onClose} leftSection={<IconX size={16} aria-hidden />}>
            Close practice
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
