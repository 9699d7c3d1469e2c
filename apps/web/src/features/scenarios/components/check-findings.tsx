import type { CheckScenarioResponse } from '@tradecraft/shared';
import { Alert, Code, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Findings({ label, items }: { label: string; items: string[] }) {
  return (
    <List size="sm" spacing={2} aria-label={label}>
      {items.map((item, index) => (
        <List.Item key={index} style={{ wordBreak: 'break-word' }}>
          <Code>{item}</Code>
        </List.Item>
      ))}
    </List>
  );
}

/** What "Check only" found: the problems that would refuse an upload and the warnings that would not. */
export function CheckFindings({ check }: { check: CheckScenarioResponse }) {
  const summary = check.scenario
    ? `"${check.scenario.name}" (${check.scenario.id}), ${count(check.scenario.stepCount, 'step', 'steps')}`
    : check.filename;
  return (
    <Stack gap="sm" component="section" aria-label="Check results" aria-live="polite">
      {check.ok ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck />} title="No problems found">
          <Text size="sm">{summary}: uploading this file would publish it. Nothing was published by the check.</Text>
        </Alert>
      ) : (
        <Alert
          color="red"
          variant="light"
          icon={<IconCircleX />}
          title={count(check.problems.length, 'problem', 'problems')}
        >
          <Stack gap={4}>
            <Text size="sm">
              {check.filename}: an upload of this file would be refused. Nothing was published by the check.
            </Text>
            <Findings label="Problems in the file" items={check.problems} />
          </Stack>
        </Alert>
      )}
      {check.warnings.length > 0 && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle />}
          title={count(check.warnings.length, 'warning', 'warnings')}
        >
          <Stack gap={4}>
            <Text size="sm">Warnings never refuse an upload, but say what a trainee could exploit.</Text>
            <Findings label="Warnings" items={check.warnings} />
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
