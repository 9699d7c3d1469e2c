import {
  draftMentions,
  formatCredit,
  writeChecks,
  type PlayerStepOfKind,
  type WriteCheckOutcome,
} from '@tradecraft/shared';
import { Alert, Badge, Group, List, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { VerdictIcon } from '../../credit';
import { WriteCheckList } from '../../write-checks';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { AnswerForm } from './answer-form';

/** Words as the trainee counts them: runs of non-space characters. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}

type LiveState = 'passed' | 'failed' | 'waiting' | 'on-submit';

/**
 * The automatic checks as the trainee types: what each looks for and whether the draft meets it so far. A term
 * to mention shows only its kind ("an IP address from the case") and whether the draft has one: the term itself
 * may be the answer, so it is checked for good on submission.
 */
function LiveChecks({ step, text }: { step: PlayerStepOfKind<'write'>; text: string }) {
  const empty = text.trim() === '';
  const outcomes = writeChecks(
    { max_words: step.maxWords, checks: { tlp: step.checks.tlp, estimative_language: step.checks.estimativeLanguage } },
    text,
  );
  const outcome = (check: WriteCheckOutcome['check']) => outcomes.find((candidate) => candidate.check === check);
  const rows: Array<{ key: string; looksFor: string; state: LiveState; note?: string }> = [];
  const tlp = outcome('tlp');
  if (tlp)
    rows.push({
      key: 'tlp',
      looksFor: 'Starts with a TLP 2.0 marking (TLP:CLEAR, TLP:GREEN, TLP:AMBER, TLP:AMBER+STRICT or TLP:RED)',
      state: empty ? 'waiting' : tlp.passed ? 'passed' : 'failed',
    });
  const estimative = outcome('estimative_language');
  if (estimative)
    rows.push({
      key: 'estimative',
      looksFor: 'States likelihood only with the seven ICD 203 terms (no “possibly”, “might”, “probably”...)',
      state: empty ? 'waiting' : estimative.passed ? 'passed' : 'failed',
      ...(estimative.places.length > 0
        ? { note: `Replace ${[...new Set(estimative.places.map((place) => `“${place.word}”`))].join(', ')}` }
        : {}),
    });
  step.checks.mustMention.forEach((mention, index) => {
    const found = draftMentions(mention.kind, text);
    rows.push({
      key: `mention-${index}`,
      looksFor: `Names ${mention.label}`,
      state: found === null ? 'on-submit' : found ? 'passed' : 'waiting',
    });
  });
  rows.push({
    key: 'words',
    looksFor: `Stays within ${step.maxWords} words`,
    state: empty ? 'waiting' : countWords(text) <= step.maxWords ? 'passed' : 'failed',
  });
  const said: Record<LiveState, string> = {
    passed: 'met so far',
    failed: 'not met',
    waiting: 'not yet',
    'on-submit': 'checked on submission',
  };
  return (
    <div>
      <Text size="sm" id={liveChecksHeading(step.id)}>
        Automatic checks, as you type:
      </Text>
      <Stack
        component="ul"
        gap={4}
        className={classes.plainList}
        aria-labelledby={liveChecksHeading(step.id)}
        data-testid="live-checks"
      >
        {rows.map((row) => (
          <li key={row.key} data-state={row.state}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <VerdictIcon
                verdict={row.state === 'passed' ? 'right' : row.state === 'failed' ? 'wrong' : null}
                size="xs"
              />
              <Text size="sm">
                {row.looksFor}: <strong>{said[row.state]}</strong>
                {row.note ? ` · ${row.note}` : ''}
              </Text>
            </Group>
          </li>
        ))}
      </Stack>
    </div>
  );
}

const liveChecksHeading = (stepId: string) => `live-checks-${stepId}`;

/**
 * write: an editor with a live word count and the automatic checks as the trainee types; once submitted, the automatic checks at
 * once, the model answer, and the instructor's review (or "Awaiting review").
 */
export function WriteControl({ step, result, busy, onSubmit }: ControlProps<'write'>) {
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const countId = useId();
  const words = countWords(text);
  const over = words > step.maxWords;

  if (!result) {
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
        <LiveChecks step={step} text={text} />
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
