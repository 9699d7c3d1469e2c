import { ActionIcon, Button, Group, SimpleGrid, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { createContext, useContext, type ReactNode } from 'react';
import { fieldError } from '../lib/problems';

/** The problems of the form being drawn, by field path (`options[1].text`). */
export const ProblemsContext = createContext<ReadonlyMap<string, string[]>>(new Map());

/**
 * What a field needs to show its problem and be found when a problem is clicked: the error text and the
 * `data-field` attribute the editor focuses by.
 */
export function useField(path: string): { error: string | undefined; 'data-field': string } {
  const problems = useContext(ProblemsContext);
  return { error: fieldError(problems, path), 'data-field': path };
}

/** Problems of a list as a whole (`options: needs at least 2 options`), shown above its items. */
export function ListProblem({ path }: { path: string }) {
  const { error } = useField(path);
  if (!error) return null;
  return (
    <Text size="sm" c="red" role="note" data-field={path} tabIndex={-1}>
      {error}
    </Text>
  );
}

/** Move up, move down and remove for one item of a list; `noun` names it for screen readers ("option 2"). */
export function ItemControls({
  index,
  count,
  noun,
  min = 0,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  noun: string;
  min?: number;
  onMove?: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}) {
  return (
    <Group gap={2} wrap="nowrap">
      {onMove && (
        <>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Move ${noun} ${index + 1} up`}
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
          >
            <IconArrowUp size={16} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Move ${noun} ${index + 1} down`}
            disabled={index === count - 1}
            onClick={() => onMove(index, index + 1)}
          >
            <IconArrowDown size={16} aria-hidden />
          </ActionIcon>
        </>
      )}
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Remove ${noun} ${index + 1}`}
        disabled={count <= min}
        onClick={() => onRemove(index)}
      >
        <IconTrash size={16} aria-hidden />
      </ActionIcon>
    </Group>
  );
}

export function AddButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconPlus size={14} aria-hidden />}
      onClick={onClick}
      disabled={disabled}
      style={{ alignSelf: 'flex-start' }}
    >
      {label}
    </Button>
  );
}

/** A NumberInput's value as the file holds it: a number, or absent when the field is cleared. */
export const numberOrUndefined = (value: number | string): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Two fields side by side, one above the other on a phone. */
export function Pair({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
      {children}
    </SimpleGrid>
  );
}
