import { ActionIcon, Badge, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { AnswerForm } from './answer-form';
import { VerdictIcon } from '../../credit';

/** Moves one entry of a list to another place, leaving the others in order. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/**
 * rank: the items as the server shuffled them, reordered by dragging or with Move up / Move down (each move is
 * announced); once answered, the right order with where the trainee put each item.
 */
export function RankControl({ step, result, busy, onSubmit }: ControlProps<'rank'>) {
  const [order, setOrder] = useState(() => step.options.map((_, index) => index));
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<number | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const count = order.length;

  const move = (from: number, to: number, focus?: 'up' | 'down') => {
    if (to < 0 || to >= count || from === to) return;
    const item = order[from]!;
    setOrder(moveItem(order, from, to));
    setAnnouncement(`${step.options[item]!.text} moved to position ${to + 1} of ${count}.`);
    if (focus) {
      // The focus follows the item; at the top or the bottom its other button is the one still usable.
      const direction =
        (focus === 'up' && to === 0) || (focus === 'down' && to === count - 1)
          ? focus === 'up'
            ? 'down'
            : 'up'
          : focus;
      requestAnimationFrame(() => buttons.current.get(`${item}-${direction}`)?.focus());
    }
  };

  if (!result) {
    return (
      <AnswerForm
        busy={busy}
        onSubmit={() => {
          onSubmit({ order });
        }}
      >
        <Text size="sm" id={`${step.id}-rank-help`}>
          Put the items in order, the first at the top. Drag an item, or use its Move up and Move down buttons.
        </Text>
        <Stack
          component="ol"
          gap="xs"
          className={classes.plainList}
          aria-label="Your order"
          aria-describedby={`${step.id}-rank-help`}
        >
          {order.map((item, position) => {
            const text = step.options[item]!.text;
            return (
              <li
                key={item}
                className={classes.rankItem}
                data-dragging={dragging === position || undefined}
                draggable={!busy}
                onDragStart={(event) => {
                  setDragging(position);
                  event.dataTransfer.effectAllowed = 'move';
                  event.dataTransfer.setData('text/plain', String(position));
                }}
                onDragEnd={() => setDragging(null)}
                onDragOver={(event) => event.preventDefault()}
                onDrop={(event) => {
                  event.preventDefault();
                  const from = Number(event.dataTransfer.getData('text/plain'));
                  if (Number.isInteger(from)) move(from, position);
                  setDragging(null);
                }}
              >
                <Group gap="xs" wrap="nowrap" align="center">
                  <IconGripVertical size={18} aria-hidden className={classes.grip} />
                  <Badge variant="light" color="gray" circle aria-hidden className="tabular-nums">
                    {position + 1}
                  </Badge>
                  <Text size="sm" className={classes.preWrap} style={{ flex: 1 }}>
                    <VisuallyHidden>Position {position + 1}: </VisuallyHidden>
                    {text}
                  </Text>
                  <ActionIcon
                    ref={(node) => {
                      if (node) buttons.current.set(`${item}-up`, node);
                    }}
                    variant="default"
                    size="lg"
                    aria-label={`Move up: ${text}`}
                    disabled={busy || position === 0}
                    onClick={() => move(position, position - 1, 'up')}
                  >
                    <IconArrowUp size={18} />
                  </ActionIcon>
                  <ActionIcon
                    ref={(node) => {
                      if (node) buttons.current.set(`${item}-down`, node);
                    }}
                    variant="default"
                    size="lg"
                    aria-label={`Move down: ${text}`}
                    disabled={busy || position === count - 1}
                    onClick={() => move(position, position + 1, 'down')}
                  >
                    <IconArrowDown size={18} />
                  </ActionIcon>
                </Group>
              </li>
            );
          })}
        </Stack>
        <VisuallyHidden aria-live="assertive" role="status">
          {announcement}
        </VisuallyHidden>
      </AnswerForm>
    );
  }

  return (
    <Stack gap="xs">
      <Text size="sm">
        The right order, with where you put each item. {result.totalPairs - result.discordantPairs} of{' '}
        {result.totalPairs} pairs in the right order.
      </Text>
      <Stack component="ol" gap="xs" className={classes.plainList} aria-label="The right order">
        {result.items.map((item, position) => {
          const placed = item.givenPosition === position;
          return (
            <li key={item.shownIndex} className={classes.lockedOption} data-state={placed ? 'correct' : 'other'}>
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <VerdictIcon verdict={placed ? 'right' : 'wrong'} />
                <Stack gap={2} miw={0}>
                  <Text size="sm" className={classes.preWrap}>
                    {position + 1}. {item.text}
                  </Text>
                  <Text size="xs" fw={600}>
                    {placed ? 'You put it here' : `You put it at position ${item.givenPosition + 1}`}
                  </Text>
                  {item.feedback && (
                    <Text size="xs" className={classes.preWrap}>
                      {item.feedback}
                    </Text>
                  )}
                </Stack>
              </Group>
            </li>
          );
        })}
      </Stack>
    </Stack>
  );
}
