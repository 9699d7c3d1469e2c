import {
  formatCredit,
  verdictWords,
  type Debrief,
  type PracticeState,
  type RunDecision,
  type RunState,
} from '@tradecraft/shared';
import { ATTACK_NOTICE } from '@tradecraft/shared/attack';
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconBarbell } from '@tabler/icons-react';
import { useState } from 'react';
import { creditVerdict, decisionCreditText, DecisionVerdictIcon, VERDICT_WORDS, VerdictIcon } from '../../../ui/credit';
import classes from '../../../ui/player/player.module.css';
import { useStartPractice } from '../api/practice-step';
import { keyInWords } from './answer-words';
import { PracticePanel } from './practice-panel';

const steps = (count: number) => `${count} ${count === 1 ? 'step' : 'steps'}`;

/** The 'MITRE ATT&CK Score': every technique met in the run, with its right first answers (0 included) and the steps missed. */
export function TechniquesMet({ debrief }: { debrief: Debrief }) {
  if (debrief.techniques.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="techniques-met-heading">
      <Title order={2} size="h3" id="techniques-met-heading">
        MITRE ATT&CK Score
      </Title>
      <Text size="sm" c="dimmed">
        Every technique of the steps you answered: the right first answers (a hint used or not), the credit, and the
        steps you missed (a first answer partly right or wrong).
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table withTableBorder verticalSpacing={6} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Technique</Table.Th>
              <Table.Th scope="col" ta="right">
                Right
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Credit
              </Table.Th>
              <Table.Th scope="col">Missed</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {debrief.techniques.map((technique) => (
              <Table.Tr key={technique.id} data-technique={technique.id}>
                <Table.Td>
                  <Text span ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {technique.id}
                  </Text>{' '}
                  {technique.name}
                </Table.Td>
                <Table.Td ta="right" className="tabular-nums" style={{ whiteSpace: 'nowrap' }}>
                  {technique.right} of {technique.answered}
                </Table.Td>
                <Table.Td ta="right" className="tabular-nums">
                  {formatCredit(technique.credit)}
                </Table.Td>
                <Table.Td>
                  {technique.missed.length === 0 ? (
                    <Text span size="sm" c="dimmed">
                      Nothing
                    </Text>
                  ) : (
                    technique.missed.map((step) => step.stepTitle).join('; ')
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        {ATTACK_NOTICE}
      </Text>
    </Stack>
  );
}

interface OpenPractice {
  stepId: string;
  practice: PracticeState;
}

/**
 * Each step's first answer beside the best one, with "Practise this step" on a missed step that can be replayed.
 * Practice opens in place under the step; its answers are listed there and never change the run's score.
 */
export function AnswersBesideBest({ run, debrief }: { run: RunState; debrief: Debrief }) {
  const [open, setOpen] = useState<OpenPractice | null>(null);
  const start = useStartPractice(run.id);
  const firstAnswers = run.timeline.filter((entry) => entry.firstSubmission);
  if (firstAnswers.length === 0) return null;
  const practisable = new Set(run.readOnly ? [] : debrief.practisable);
  const offered = new Set<string>();
  const scoreText = `${formatCredit(run.score)} / ${run.percentBase} (${run.scorePercent}%)`;

  return (
    <Stack gap="xs" component="section" aria-labelledby="answers-heading">
      <Title order={2} size="h3" id="answers-heading">
        Your answers and the best ones
      </Title>
      <Text size="sm" c="dimmed">
        The first answer of each step you played, beside the best answer.
        {practisable.size > 0 && ' Practise a missed step again: practice never changes the score.'}
      </Text>
      <Stack component="ol" gap="sm" className={classes.plainList} aria-label="Your answers and the best ones">
        {firstAnswers.map((entry, index) => {
          // One practice button per missed step, on its first miss.
          const canPractise = practisable.has(entry.stepId) && !offered.has(entry.stepId);
          if (canPractise) offered.add(entry.stepId);
          return (
            <AnswerItem
              key={entry.seq}
              number={index + 1}
              entry={entry}
              practice={canPractise ? debrief.practice.filter((record) => record.stepId === entry.stepId) : []}
              practising={open?.stepId === entry.stepId}
              practiceButton={
                canPractise && open?.stepId !== entry.stepId ? (
                  <Button
                    size="compact-sm"
                    variant="light"
                    leftSection={<IconBarbell size={16} aria-hidden />}
                    loading={start.isPending && start.variables === entry.stepId}
                    onClick={() =>
                      start.mutate(entry.stepId, {
                        onSuccess: ({ practice }) => setOpen({ stepId: entry.stepId, practice }),
                      })
                    }
                    aria-label={`Practise this step: ${entry.stepTitle ?? entry.stepId}`}
                  >
                    Practise this step
                  </Button>
                ) : null
              }
            >
              {start.isError && start.variables === entry.stepId && (
                <Alert color="red" icon={<IconAlertCircle />} role="alert">
                  {start.error.message}
                </Alert>
              )}
              {open?.stepId === entry.stepId && (
                <PracticePanel
                  key={open.practice.id}
                  practice={open.practice}
                  scoreText={scoreText}
                  onClose={() => setOpen(null)}
                />
              )}
            </AnswerItem>
          );
        })}
      </Stack>
    </Stack>
  );
}

function AnswerItem({
  number,
  entry,
  practice,
  practiceButton,
  practising = false,
  children,
}: {
  number: number;
  entry: RunDecision;
  practice: Debrief['practice'];
  practiceButton: React.ReactNode;
  /** While the step is practised, its key waits for the practice answer (the practice panel then shows it). */
  practising?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" data-step-id={entry.stepId}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Group gap="xs" wrap="nowrap" align="flex-start" miw={0}>
            <DecisionVerdictIcon verdict={entry.verdict} />
            <Stack gap={0} miw={0}>
              <Text fw={600} size="sm">
                {number}. {entry.stepTitle ?? entry.stepId}
              </Text>
              <Text size="xs" c="dimmed" className="tabular-nums">
                {verdictWords(entry.verdict, entry.hintUsed)} · {decisionCreditText(entry)}
                {entry.technique ? ` · ${entry.technique.id}` : ''}
              </Text>
            </Stack>
          </Group>
          {practiceButton}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
          <dl className={classes.answerPair}>
            <dt>Your answer</dt>
            <dd>{entry.decision}</dd>
          </dl>
          <dl className={classes.answerPair}>
            <dt>Best answer</dt>
            <dd>
              {practising
                ? 'Hidden while you practise: answer the practice first.'
                : entry.result
                  ? keyInWords(entry.result)
                  : 'Not recorded for this run'}
            </dd>
          </dl>
        </SimpleGrid>
        {practice.length > 0 && (
          <Stack gap={4} aria-label={`Practice of ${entry.stepTitle ?? entry.stepId}`} role="group">
            {practice.map((record, index) => (
              <Group key={record.id} gap={6} wrap="nowrap" align="flex-start">
                <VerdictIcon verdict={creditVerdict(record.credit)} size="xs" />
                <Text size="sm">
                  Practice {index + 1}: {VERDICT_WORDS[creditVerdict(record.credit)]} ({formatCredit(record.credit)} of
                  1, not counted) · {record.decision}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** The path taken beside the best path; a run that can still be resumed hides the best path's steps to come. */
export function PathComparison({ debrief }: { debrief: Debrief }) {
  const best = new Set(debrief.bestPath.map((step) => step.stepId));
  const complete = debrief.bestPathHiddenSteps === 0;
  return (
    <Stack gap="xs" component="section" aria-labelledby="paths-heading">
      <Title order={2} size="h3" id="paths-heading">
        Your path and the best path
      </Title>
      <Text size="sm" c="dimmed">
        The best path answers every step with its best answer, from the first step.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Paper withBorder radius="md" p="sm">
          <Title order={3} size="h5" id="path-taken-heading" mb="xs">
            The path you took ({steps(debrief.pathTaken.length)})
          </Title>
          <Stack component="ol" gap={6} aria-labelledby="path-taken-heading" m={0} pl="lg">
            {debrief.pathTaken.map((step, index) => (
              <li key={`${step.stepId}-${index}`}>
                <Text size="sm" span>
                  {step.stepTitle}
                </Text>
                {step.seq === null && (
                  <Badge ml={6} size="sm" variant="light" color="gray" tt="none">
                    stopped here
                  </Badge>
                )}
                {complete && !best.has(step.stepId) && (
                  <Badge ml={6} size="sm" variant="outline" color="orange.8" tt="none">
                    off the best path
                  </Badge>
                )}
              </li>
            ))}
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="sm">
          <Title order={3} size="h5" id="best-path-heading" mb="xs">
            The best path
            {complete ? ` (${steps(debrief.bestPath.length)})` : ''}
          </Title>
          <Stack component="ol" gap={6} aria-labelledby="best-path-heading" m={0} pl="lg">
            {debrief.bestPath.map((step) => (
              <li key={step.stepId}>
                <Text size="sm" span>
                  {step.stepTitle}
                </Text>
                <Badge ml={6} size="sm" variant="light" color={step.taken ? 'green' : 'gray'} tt="none">
                  {step.taken ? 'taken' : 'not taken'}
                </Badge>
              </li>
            ))}
          </Stack>
          {!complete && (
            <Text size="sm" c="dimmed" mt="xs">
              {debrief.bestPathHiddenSteps} more {debrief.bestPathHiddenSteps === 1 ? 'step' : 'steps'} on the best
              path, shown once this run is finished.
            </Text>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
