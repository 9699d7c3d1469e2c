import type { PlayerHint } from '@tradecraft/shared';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import { useId } from 'react';
import { formatShare } from '../credit';
import classes from './player.module.css';

/** What opening the hint costs, said before it is opened. */
export function hintCostText(cost: number): string {
  return cost > 0
    ? `Opening the hint costs ${formatShare(cost)} of this step's credit.`
    : 'The hint is free on this step.';
}

/**
 * "Show hint": the server sends the hint only when asked, and records it; the cost is said before it is opened.
 * Once opened the hint stays in view (also after a reload).
 */
export function HintButton({
  hint,
  answered,
  busy,
  onOpen,
}: {
  hint: PlayerHint;
  answered: boolean;
  busy: boolean;
  onOpen: () => void;
}) {
  const costId = useId();
  if (!hint.available) return null;
  if (hint.opened && hint.text !== null) {
    return (
      <Alert variant="light" color="yellow" icon={<IconBulb />} role="note" aria-label="Hint" title="Hint">
        <Text size="sm" className={classes.preWrap}>
          {hint.text}
        </Text>
      </Alert>
    );
  }
  if (answered) return null;
  return (
    <Stack gap={2}>
      <Button
        variant="subtle"
        size="compact-md"
        leftSection={<IconBulb size={18} aria-hidden />}
        aria-describedby={costId}
        loading={busy}
        onClick={onOpen}
        style={{ alignSelf: 'flex-start' }}
      >
        Show hint
      </Button>
      <Text size="xs" c="dimmed" id={costId}>
        {hintCostText(hint.cost)}
      </Text>
    </Stack>
  );
}
