import type { ProgrammePerson } from '@tradecraft/shared';
import { Alert, Button, Group, List, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { LoadError } from '../../../ui/load-error';
import { useCreateAssignments } from '../api/assignments';
import { useRemediation } from '../api/cohorts';

/** A trainee's weakest techniques and skills and the scenarios that train them, each assignable in one click. */
export function RemediationModal({ trainee, onClose }: { trainee: ProgrammePerson | null; onClose: () => void }) {
  const remediation = useRemediation(trainee?.id ?? null);
  const assign = useCreateAssignments();
  const [assigned, setAssigned] = useState<string[]>([]);
  const name = trainee ? `${trainee.firstName} ${trainee.lastName}`.trim() || trainee.email : '';
  return (
    <Modal opened={trainee !== null} onClose={onClose} title={`What ${name} should practise`} size="lg">
      {remediation.isPending ? (
        <Skeleton height={120} />
      ) : remediation.isError ? (
        <LoadError
          title="Recommendations could not be loaded"
          error={remediation.error}
          onRetry={() => void remediation.refetch()}
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            Weakest techniques:{' '}
            {remediation.data.weakTechniques.length === 0
              ? 'none below 70 %'
              : remediation.data.weakTechniques.map((t) => `${t.id} ${t.name} (${t.sharePercent}%)`).join(', ')}
          </Text>
          <Text size="sm">
            Weakest skills:{' '}
            {remediation.data.weakSkills.length === 0
              ? 'none below 70 %'
              : remediation.data.weakSkills.map((s) => `${s.label} (${s.percent}%)`).join(', ')}
          </Text>
          {assign.error && <Alert color="red">{assign.error.message}</Alert>}
          {remediation.data.scenarios.length === 0 ? (
            <Text c="dimmed">Nothing to recommend yet.</Text>
          ) : (
            <List spacing="sm">
              {remediation.data.scenarios.map((scenario) => (
                <List.Item key={scenario.id}>
                  <Group justify="space-between" wrap="wrap">
                    <Stack gap={0}>
                      <Text fw={600}>{scenario.name}</Text>
                      <Text size="sm" c="dimmed">
                        trains {scenario.trains.join(', ')}
                      </Text>
                    </Stack>
                    <Button
                      size="xs"
                      disabled={assigned.includes(scenario.id)}
                      loading={assign.isPending && assign.variables?.scenarioId === scenario.id}
                      onClick={() =>
                        assign.mutate(
                          { scenarioId: scenario.id, userIds: [trainee!.id] },
                          { onSuccess: () => setAssigned((list) => [...list, scenario.id]) },
                        )
                      }
                      aria-label={`Assign ${scenario.name} to ${name}`}
                    >
                      {assigned.includes(scenario.id) ? 'Assigned' : 'Assign'}
                    </Button>
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      )}
    </Modal>
  );
}
