import { Group, Paper, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { Link } from 'react-router';
import classes from './stat-card.module.css';

export interface StatCardProps {
  label: string;
  /** Undefined while loading. */
  value: number | undefined;
  /** A short line under the number, e.g. what "today" means. */
  hint?: string;
  icon?: Icon;
  color?: string;
  /** Makes the whole card a link to the screen behind the number. */
  to?: string;
}

/** One count an admin looks at first; with `to`, the card opens the screen behind it. */
export function StatCard({ label, value, hint, icon: CardIcon, color = 'accent', to }: StatCardProps) {
  const body = (
    <>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Text size="sm" c="dimmed" fw={600}>
          {label}
        </Text>
        {CardIcon && (
          <ThemeIcon variant="light" color={color} size="md" radius="md" aria-hidden>
            <CardIcon size={18} stroke={1.7} />
          </ThemeIcon>
        )}
      </Group>
      {value === undefined ? (
        <Skeleton height={30} width={80} mt={6} />
      ) : (
        <Text fz={30} fw={700} mt={4} className={classes.value}>
          {value.toLocaleString()}
        </Text>
      )}
      {hint && (
        <Text size="xs" c="dimmed" mt={4}>
          {hint}
        </Text>
      )}
    </>
  );
  if (to) {
    return (
      <Paper component={Link} to={to} withBorder radius="md" p="md" className={classes.card}>
        {body}
      </Paper>
    );
  }
  return (
    <Paper withBorder radius="md" p="md" className={classes.card}>
      {body}
    </Paper>
  );
}
