import { STEP_KIND_LABELS, verdictWords, type RunDecision } from '@tradecraft/shared';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { keyInWords } from './answer-words';
import { decisionCreditText, DecisionVerdictIcon } from '../../../ui/credit';
import classes from '../../../ui/player/player.module.css';

export function formatSeconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** Every decision of the run in order: the step's kind, the answer, the key, the credit and the feedback. */
export function DecisionTimeline({ timeline }: { timeline: RunDecision[] }) {
  if (timeline.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No decisions were made in this run.
      </Text>
    );
  }
  return (
    <Stack component="ol" gap="sm" className={classes.plainList} aria-label="Decision Timeline">
      {timeline.map((entry) => (
        <Paper component="li" withBorder p="sm" radius="md" key={entry.seq}>
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
            <Group gap="sm" wrap="nowrap" align="flex-start" miw={0}>
              <DecisionVerdictIcon verdict={entry.verdict} />
              <Stack gap={2} miw={0}>
                <Group gap={6}>
                  <Text size="xs" c="dimmed">
                    {entry.seq}. {entry.stepTitle ?? entry.stepId}
                    {entry.technique ? ` · ${entry.technique.id}` : ''}
                  </Text>
                  <Badge size="xs" variant="light" color="gray">
                    {STEP_KIND_LABELS[entry.kind]}
                  </Badge>
                </Group>
                <Text size="sm" fw={600} className={classes.preWrap}>
                  {entry.decision}
                </Text>
                {entry.result && (
                  <Text size="sm" className={classes.preWrap}>
                    Key: {keyInWords(entry.result)}
                  </Text>
                )}
                <Text size="sm" fw={600} className="tabular-nums">
                  {verdictWords(entry.verdict, entry.hintUsed)} · {decisionCreditText(entry)}
                </Text>
                <Text size="sm" mt={4} className={classes.preWrap}>
                  {entry.feedback}
                </Text>
              </Stack>
            </Group>
            {entry.timeMs !== null && (
              <Text size="xs" c="dimmed" className="tabular-nums" style={{ whiteSpace: 'nowrap' }}>
                {formatSeconds(entry.timeMs)}
              </Text>
            )}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
