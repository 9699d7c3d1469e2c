import { Checkbox, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { AnswerForm } from './answer-form';
import { VerdictIcon } from '../../credit';

/** multi: a checkbox per option; once answered, each option says whether it applies and how the choice fared. */
export function MultiControl({ step, result, busy, onSubmit }: ControlProps<'multi'>) {
  const [selected, setSelected] = useState<string[]>([]);

  if (!result) {
    return (
      <AnswerForm
        busy={busy}
        onSubmit={() => {
          onSubmit({ selected: selected.map(Number).sort((a, b) => a - b) });
        }}
      >
        <Checkbox.Group
          value={selected}
          onChange={setSelected}
          label="Select every option that applies"
          description="Leave all unticked if none applies."
        >
          <Stack gap="xs" mt="xs">
            {step.options.map((option, index) => (
              <Checkbox
                key={index}
                value={String(index)}
                disabled={busy}
                label={<span className={classes.preWrap}>{option.text}</span>}
                classNames={{ root: classes.checkOption }}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      </AnswerForm>
    );
  }

  return (
    <Stack gap="xs">
      <Text size="sm">
        You found {result.rightPicked} of {result.rightCount} that apply
        {result.wrongPicked > 0
          ? ` and picked ${result.wrongPicked} that ${result.wrongPicked === 1 ? 'does' : 'do'} not`
          : ''}
        .
      </Text>
      <Stack component="ul" gap="xs" className={classes.plainList} aria-label="Options">
        {result.options.map((option, index) => (
          <li
            key={index}
            className={classes.lockedOption}
            data-state={option.verdict === 'right' ? (option.correct ? 'correct' : 'other') : 'wrong'}
          >
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <VerdictIcon verdict={option.verdict} />
              <Stack gap={2} miw={0}>
                <Text size="sm" className={classes.preWrap}>
                  {option.text}
                </Text>
                <Text size="xs" fw={600}>
                  {option.correct ? 'Applies' : 'Does not apply'} ·{' '}
                  {option.selected ? 'you selected it' : 'you left it'}
                  {option.verdict === 'wrong' ? (option.correct ? ' (missed)' : ' (wrong pick)') : ''}
                </Text>
                {option.feedback && (
                  <Text size="xs" className={classes.preWrap}>
                    {option.feedback}
                  </Text>
                )}
              </Stack>
            </Group>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
