import type { ScenarioProblem } from '@tradecraft/shared';
import { Alert, Group, List, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { DraftStep } from '../lib/draft';
import { problemPlace } from '../lib/problems';
import classes from './editor.module.css';

function placeName(path: string, steps: readonly DraftStep[]): string {
  const place = problemPlace(path);
  if (place.stepIndex === null) return place.field === '' ? 'The scenario' : `Scenario · ${place.field}`;
  const step = steps[place.stepIndex];
  const name = step?.id ? `Step ${place.stepIndex + 1} (${step.id})` : `Step ${place.stepIndex + 1}`;
  return place.field === '' ? name : `${name} · ${place.field}`;
}

/**
 * What the checker says as the author types (the same checker as uploads). Each problem is a button that
 * selects its step and puts the cursor in its field.
 */
export function ProblemsPanel({
  problems,
  warnings,
  checking,
  steps,
  onPick,
}: {
  problems: readonly ScenarioProblem[];
  warnings: readonly ScenarioProblem[];
  checking: boolean;
  steps: readonly DraftStep[];
  onPick: (path: string) => void;
}) {
  const status = checking ? (
    <Group gap={6}>
      <Loader size={14} aria-hidden />
      <Text size="sm">Checking…</Text>
    </Group>
  ) : problems.length === 0 ? (
    <Group gap={6}>
      <IconCircleCheck size={18} color="var(--mantine-color-green-filled)" aria-hidden />
      <Text size="sm" fw={600}>
        No problems: ready to publish.
      </Text>
    </Group>
  ) : (
    <Group gap={6}>
      <IconAlertTriangle size={18} color="var(--mantine-color-red-filled)" aria-hidden />
      <Text size="sm" fw={600}>
        {problems.length} problem{problems.length === 1 ? '' : 's'} to fix before publishing
      </Text>
    </Group>
  );
  return (
    <Stack gap="xs" component="section" aria-label="Checker">
      <div role="status" aria-live="polite">
        {status}
      </div>
      {problems.length > 0 && (
        <List listStyleType="none" spacing={4} className={classes.problemList} aria-label="Problems">
          {problems.map((problem, index) => (
            <List.Item key={`${problem.path}-${index}`}>
              <UnstyledButton className={classes.problem} onClick={() => onPick(problem.path)}>
                <Text span size="sm" fw={600}>
                  {placeName(problem.path, steps)}
                </Text>
                <Text span size="sm">
                  {' '}
                  {problem.message}
                </Text>
              </UnstyledButton>
            </List.Item>
          ))}
        </List>
      )}
      {warnings.length > 0 && (
        <Alert variant="light" color="yellow" icon={<IconInfoCircle />} title="Advice (does not stop publishing)">
          {warnings.map((warning, index) => (
            <Text key={index} size="sm">
              {warning.message}
            </Text>
          ))}
        </Alert>
      )}
    </Stack>
  );
}
