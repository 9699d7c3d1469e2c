import { ASSIGNMENT_STATUS_LABELS, type AssignmentStatus } from '@tradecraft/shared';
import { Badge } from '@mantine/core';
import { formatDateTime } from '../../../lib/dates';

const COLORS: Record<AssignmentStatus, string> = {
  passed: 'green',
  failed: 'red',
  overdue: 'red',
  in_progress: 'blue',
  awaiting_review: 'indigo',
  not_started: 'gray',
};

/** An assignment's status: the words always written, the colour only helps. */
export function StatusBadge({ status }: { status: AssignmentStatus }) {
  return (
    <Badge
      color={COLORS[status]}
      variant={status === 'overdue' || status === 'passed' ? 'filled' : 'light'}
      radius="sm"
      tt="none"
      fz="sm"
      styles={{ label: { overflow: 'visible' } }}
      data-status={status}
    >
      {ASSIGNMENT_STATUS_LABELS[status]}
    </Badge>
  );
}

/** "25 Nov 2026, 17:00" in the browser's time zone. */
export const formatWhen = (iso: string) => formatDateTime(iso);
