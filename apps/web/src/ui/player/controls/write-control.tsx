import { formatCredit } from '@tradecraft/shared';
import { Alert, Badge, Group, List, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { WriteCheckList } from '../../write-checks';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { AnswerForm } from './answer-form';

/** Words as the trainee counts them: runs of non-space characters. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}

/**
 * write: an editor with a live word count and the checks that will run; once submitted, the automatic checks at
 * once, the model answer, and the instructor's review (or "Awaiting review").
 */
export function WriteControl({ step, result, busy, onSubmit }: ControlProps<'write'>) {
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const countId = useId();
  const words = countWords(text);
  const over = words > step.maxWords;

  if (!result) {
    const planned = [
      step.checks.tlp
        ? 'it starts with a TLP 2.0 marking (TLP:CLEAR, TLP:GREEN, TLP:AMBER, TLP:AMBER+STRICT or TLP:RED)'
        : null,
      step.checks.estimativeLanguage
        ? 'likelihood is stated only with the seven ICD 203 terms (no “possibly”, “might”, “probably”...)'
        : null,
      step.checks.mustMention.length > 0 ? `it mentions ${step.checks.mustMention.join(', ')}` : null,
      `it stays within ${step.maxWords} words`,
    ].filter((check): check is string => check !== null);
    return (
      <AnswerForm
        busy={busy}
        note="You can submit once; the first submission is graded."
        onSubmit={() => {
          if (!text.trim()) {
            setMissing(true);
            return;
          }
          onSubmit({ text });
        }}
      >
        <Text size="sm" fw={600} className={classes.preWrap}>
          {step.prompt}
        </Text>
        <div>
          <Text size="sm">Checked automatically when you submit:</Text>
          <List size="sm" spacing={2}>
            {planned.map((check) => (
              <List.Item key={check}>{check}</List.Item>
            ))}
          </List>
        </div>
        <Textarea
          label="Your answer"
          autosize
          minRows={8}
          maxRows={20}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          disabled={busy}
          maxLength={20_000}
          aria-describedby={countId}
          error={missing && !text.trim() ? 'Write your answer first.' : undefined}
        />
        <Text id={countId} size="sm" c={over ? 'red.8' : 'dimmed'} className="tabular-nums" fw={over ? 700 : 400}>
          {words} / {step.maxWords} words{over ? ' (over the limit)' : ''}
        </Text>
        <div>
          <Text size="sm">An instructor then grades it by this rubric:</Text>
          <List size="sm" spacing={2}>
            {step.rubric.map((criterion, index) => (
              <List.Item key={index}>
                {criterion.criterion} ({criterion.points} {criterion.points === 1 ? 'point' : 'points'})
              </List.Item>
            ))}
          </List>
        </div>
      </AnswerForm>
    );
  }

  const review = result.review;
  return (
    <Stack gap="sm">
      <Paper withBorder p="sm" radius="sm">
        <Text size="xs" c="dimmed" mb={4} className="tabular-nums">
          Your answer · {result.wordCount} / {result.maxWords} words
        </Text>
        <Text size="sm" className={classes.preWrap}>
          {result.text}
        </Text>
      </Paper>
      <Title order={3} size="h5">
        Automatic checks
      </Title>
      <WriteCheckList checks={result.checks} />
      <Text size="sm">
        Automatic share: {formatCredit(result.autoCredit)} of {formatCredit(result.autoWeight)} credit.
      </Text>
      {review?.status === 'pending' && (
        <Alert variant="light" color="blue" icon={<IconHourglass />} title="Awaiting review">
          An instructor grades the rest ({formatCredit(1 - result.autoWeight)} credit) by the rubric. You will get a
          notification when it is done.
        </Alert>
      )}
      {review?.status === 'graded' && review.points && (
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={3} size="h5">
              Instructor review
            </Title>
            <Badge color="green" variant="light">
              Graded
            </Badge>
          </Group>
          <Table fz="sm" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Criterion</Table.Th>
                <Table.Th scope="col" ta="right">
                  Points
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.rubric.map((criterion, index) => (
                <Table.Tr key={index}>
                  <Table.Td className={classes.preWrap}>{criterion.criterion}</Table.Td>
                  <Table.Td ta="right" className="tabular-nums">
                    {review.points?.[index] ?? 0} / {criterion.points}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {review.comment && (
            <Text size="sm" className={classes.preWrap}>
              Comment: {review.comment}
            </Text>
          )}
        </Stack>
      )}
      <Title order={3} size="h5">
        Model answer
      </Title>
      <Paper withBorder p="sm" radius="sm">
        <Text size="sm" className={classes.preWrap}>
          {result.modelAnswer}
        </Text>
      </Paper>
    </Stack>
  );
}
