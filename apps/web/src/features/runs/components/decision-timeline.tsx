import type { RunDecision } from '@tradecraft/shared';
import { Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import classes from './runs.module.css';

export function formatSeconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** Every decision of the run in order, with its feedback (the feedback text says right or wrong). */
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
              <ThemeIcon color={entry.correct ? 'green' : 'red'} variant="light" radius="xl" size="md" aria-hidden>
                {entry.correct ? <IconCheck size={16} /> : <IconX size={16} />}
              </ThemeIcon>
              <Stack gap={2} miw={0}>
                <Text size="xs" c="dimmed">
                  {entry.seq}. {entry.stepTitle ?? entry.stepId}
                  {entry.technique ? ` · ${entry.technique.id}` : ''}
                </Text>
                <Text size="sm" fw={600} className={classes.preWrap}>
                  {entry.decision}
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
