import { formatCredit, type RunState } from '@tradecraft/shared';
import { Group, Progress, Stack, Text } from '@mantine/core';

/**
 * The score so far: the credits earned over what the percent divides by (the steps played, or the best path's
 * length while that is longer), so a perfect run reads 100 %.
 */
export function ScoreBar({ run }: { run: Pick<RunState, 'score' | 'percentBase' | 'scorePercent'> }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Score
        </Text>
        <Text size="sm" className="tabular-nums">
          {formatCredit(run.score)} / {run.percentBase} ({run.scorePercent}%)
        </Text>
      </Group>
      <Progress value={run.scorePercent} size="md" radius="xl" aria-label={`Score ${run.scorePercent}%`} />
    </Stack>
  );
}
