import { Group, Progress, Stack, Text } from '@mantine/core';

/** The progress bar of score percent (score over the scenario's step count). */
export function ScoreBar({ score, stepCount, percent }: { score: number; stepCount: number; percent: number }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          Score
        </Text>
        <Text size="sm" className="tabular-nums">
          {score} / {stepCount} ({percent}%)
        </Text>
      </Group>
      <Progress value={percent} size="md" radius="xl" aria-label={`Score ${percent}%`} />
    </Stack>
  );
}
