import { formatCredit } from '@tradecraft/shared';
import { Button, Group, Kbd, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { VerdictIcon } from '../../credit';

/** Keys typed into a field or a dialog are not player shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  return (
    target instanceof Element &&
    target.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]') !== null
  );
}

/** choice: one button per option (keys 1-6 pick one); once answered, every option with its credit and feedback. */
export function ChoiceControl({ step, result, busy, onSubmit }: ControlProps<'choice'>) {
  const choose = useRef((optionIndex: number) => onSubmit({ optionIndex }));
  useEffect(() => {
    choose.current = (optionIndex: number) => {
      if (!busy) onSubmit({ optionIndex });
    };
  });
  const optionCount = step.options.length;
  const answered = result !== null;
  useEffect(() => {
    if (answered) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
      if (isTypingTarget(event.target) || !/^[1-8]$/.test(event.key)) return;
      const index = Number(event.key) - 1;
      if (index < optionCount) {
        event.preventDefault();
        choose.current(index);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [answered, optionCount]);

  if (!result) {
    return (
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
            onClick={() => choose.current(index)}
          >
            {option.text}
          </Button>
        ))}
        <Text size="xs" c="dimmed" visibleFrom="sm">
          Press 1 to {optionCount} to choose an option.
        </Text>
      </Stack>
    );
  }

  return (
    <Stack component="ol" gap="xs" className={classes.plainList} aria-label="Options">
      {result.options.map((option, index) => {
        const correct = index === result.correctIndex;
        const state = correct ? 'correct' : option.chosen ? (option.credit > 0 ? 'partial' : 'wrong') : 'other';
        const notes = [
          option.chosen ? 'Your answer' : null,
          correct ? 'Correct answer' : option.credit > 0 ? `Second best: ${formatCredit(option.credit)} credit` : null,
        ].filter(Boolean);
        return (
          <li key={index} className={classes.lockedOption} data-state={state}>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <VerdictIcon
                verdict={correct ? 'right' : option.chosen ? (option.credit > 0 ? 'partial' : 'wrong') : null}
              />
              <Stack gap={2} miw={0}>
                <Text size="sm" className={classes.preWrap}>
                  {option.text}
                </Text>
                {notes.length > 0 && (
                  <Text size="xs" fw={600}>
                    {notes.join(' · ')}
                  </Text>
                )}
                {option.feedback && (option.chosen || correct) && (
                  <Text size="xs" className={classes.preWrap}>
                    {option.feedback}
                  </Text>
                )}
              </Stack>
            </Group>
          </li>
        );
      })}
    </Stack>
  );
}
