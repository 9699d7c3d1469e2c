import { STEP_KIND_LABELS, verdictWords, type ProgressDecision } from '@tradecraft/shared';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { decisionCreditText, DecisionVerdictIcon } from '../../../ui/credit';
import classes from './progress.module.css';

export function formatAnswerTime(milliseconds: number | null): string {
  return milliseconds === null ? '-' : `${(milliseconds / 1000).toFixed(1)} s`;
}

/** Each decision of a run in order (its kind, answer, credit and feedback), under the heading 'Decision Timeline'. */
export function DecisionTimeline({
  id,
  timeline,
  scenarioName,
}: {
  id: string;
  timeline: ProgressDecision[];
  scenarioName: string;
}) {
  const headingId = `${id}-heading`;
  return (
    <Stack gap="xs" id={id} aria-labelledby={headingId} role="region">
      <Text fw={650} id={headingId}>
        Decision Timeline
        <Text span c="dimmed" fw={400} size="sm">
          {' · '}
          {scenarioName}
        </Text>
      </Text>
      {timeline.length === 0 ? (
        <Text size="sm" c="dimmed">
          No decisions were recorded in this run.
        </Text>
      ) : (
        <Stack component="ol" gap="xs" className={classes.plainList}>
          {timeline.map((entry) => (
            <Paper component="li" withBorder p="sm" radius="md" key={entry.seq}>
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
                <Group gap="sm" wrap="nowrap" align="flex-start" miw={0}>
                  <DecisionVerdictIcon verdict={entry.verdict} />
                  <Stack gap={2} miw={0}>
                    <Group gap={6}>
                      <Text size="xs" c="dimmed" className="tabular-nums">
                        Decision {entry.seq} · {STEP_KIND_LABELS[entry.kind]} ·{' '}
                        {verdictWords(entry.verdict, entry.hintUsed)} · {decisionCreditText(entry)}
                      </Text>
                      {entry.technique && (
                        <Badge variant="outline" color="gray" size="xs" radius="sm" title={entry.technique.name}>
                          {entry.technique.id}
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm" fw={600} className={classes.preWrap}>
                      {entry.decision}
                    </Text>
                  </Stack>
                </Group>
                <Text size="xs" c="dimmed" className="tabular-nums" style={{ whiteSpace: 'nowrap' }}>
                  {formatAnswerTime(entry.timeMs)}
                </Text>
              </Group>
              <Text size="sm" mt={6} className={classes.preWrap}>
                {entry.feedback}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
