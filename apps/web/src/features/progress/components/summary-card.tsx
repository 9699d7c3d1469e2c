import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure of the dashboard's summary: a label, the value in large tabular figures, a line of context. */
export function SummaryCard({ label, value, detail }: { label: string; value: string; detail: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="sm" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text fz={32} fw={700} lh={1.2} className="tabular-nums">
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {detail}
      </Text>
    </Paper>
  );
}
