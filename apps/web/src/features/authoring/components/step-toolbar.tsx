import { STEP_KIND_LABELS, STEP_KINDS, type StepKind } from '@tradecraft/shared';
import { Button, Group, Menu, Select } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { MAX_STEPS, type DraftStep } from '../lib/draft';

/** Which step is open, and the step-level actions: add (by kind), duplicate, move, delete. */
export function StepToolbar({
  steps,
  selectedIndex,
  problemCounts,
  onSelect,
  onAdd,
  onDuplicate,
  onMove,
  onDelete,
}: {
  steps: readonly DraftStep[];
  selectedIndex: number | null;
  problemCounts: ReadonlyMap<number, number>;
  onSelect: (index: number) => void;
  onAdd: (kind: StepKind) => void;
  onDuplicate: () => void;
  onMove: (to: number) => void;
  onDelete: () => void;
}) {
  const data = useMemo(
    () =>
      steps.map((step, index) => {
        const problems = problemCounts.get(index) ?? 0;
        return {
          value: String(index),
          label: `${index + 1}. ${step.id || '(no id)'} · ${step.title.trim() || 'untitled'}${problems > 0 ? ` (${problems} problem${problems === 1 ? '' : 's'})` : ''}`,
        };
      }),
    [steps, problemCounts],
  );
  const full = steps.length >= MAX_STEPS;
  const none = selectedIndex === null;
  return (
    <Group gap="xs" align="flex-end">
      <Select
        label="Step"
        data={data}
        value={selectedIndex === null ? null : String(selectedIndex)}
        onChange={(value) => value !== null && onSelect(Number(value))}
        allowDeselect={false}
        searchable
        style={{ flex: '1 1 220px' }}
      />
      <Group gap={4} wrap="wrap">
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button size="sm" variant="light" leftSection={<IconPlus size={16} aria-hidden />} disabled={full}>
              Add step
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Add after the selected step</Menu.Label>
            {STEP_KINDS.map((kind) => (
              <Menu.Item key={kind} onClick={() => onAdd(kind)}>
                {STEP_KIND_LABELS[kind]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <Button
          size="sm"
          variant="default"
          leftSection={<IconCopy size={16} aria-hidden />}
          disabled={none || full}
          onClick={onDuplicate}
        >
          Duplicate
        </Button>
        <Button
          size="sm"
          variant="default"
          aria-label="Move step up"
          disabled={none || selectedIndex === 0}
          onClick={() => selectedIndex !== null && onMove(selectedIndex - 1)}
        >
          <IconArrowUp size={16} aria-hidden />
        </Button>
        <Button
          size="sm"
          variant="default"
          aria-label="Move step down"
          disabled={none || selectedIndex === steps.length - 1}
          onClick={() => selectedIndex !== null && onMove(selectedIndex + 1)}
        >
          <IconArrowDown size={16} aria-hidden />
        </Button>
        <Button
          size="sm"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          disabled={none || steps.length <= 1}
          onClick={onDelete}
        >
          Delete
        </Button>
      </Group>
    </Group>
  );
}
