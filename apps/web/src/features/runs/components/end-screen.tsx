import { formatCredit, RUN_MESSAGES, type RunState } from '@tradecraft/shared';
import { ATTACK_NOTICE } from '@tradecraft/shared/attack';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconHourglass, IconPlayerPlay, IconReportAnalytics } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { AnalystSkillsTable } from '../../../ui/analyst-skills-table';
import { DecisionTimeline } from './decision-timeline';
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

/** The end of a run: how it went, the techniques practised, every decision, and where to go next. */
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
        <Stat label="Right answers" value={String(run.correctCount)} />
        <Stat label="Other answers" value={String(run.incorrectCount)} note="wrong or partly right" />
      </SimpleGrid>

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
        {!run.scenarioDeleted && !run.readOnly && (
          <Button
            component={Link}
            to={paths.simulation(run.scenarioId)}
            variant="default"
            leftSection={<IconPlayerPlay size={18} aria-hidden />}
          >
            Play again
          </Button>
        )}
        <Button
          component={Link}
          to={paths.scenarios}
          variant="default"
          leftSection={<IconArrowLeft size={18} aria-hidden />}
        >
          Back to scenarios
        </Button>
      </Group>

      {run.techniqueScores.length > 0 && (
        <Stack gap="xs" component="section" aria-labelledby="attack-score-heading">
          <Title order={2} size="h3" id="attack-score-heading">
            MITRE ATT&CK Score
          </Title>
          <Text size="sm" c="dimmed">
            Credit per technique practised in this run.
          </Text>
          <Table.ScrollContainer minWidth={320}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Technique</Table.Th>
                  <Table.Th scope="col">Name</Table.Th>
                  <Table.Th scope="col" ta="right">
                    Credit
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {run.techniqueScores.map((technique) => (
                  <Table.Tr key={technique.id}>
                    <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                      {technique.id}
                    </Table.Td>
                    <Table.Td>{technique.name}</Table.Td>
                    <Table.Td ta="right" className="tabular-nums">
                      {formatCredit(technique.credit)} / {technique.attempts}
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
