import { Anchor, Badge, Group, List, Modal, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBinaryTree, IconListDetails } from '@tabler/icons-react';
import { useScenario } from '../api/get-scenario';
import { difficultyName, difficultyText } from '../lib/difficulty';
import { BranchDiagram } from './branch-diagram';
import { LoadError } from '../../../ui/load-error';
import { ScenarioSteps } from './scenario-steps';
import { ScenarioTypeBadge } from './scenario-type';

/** The whole scenario, read-only, as a list of steps and as a branch diagram. */
export function ScenarioPreviewModal({ scenarioId, onClose }: { scenarioId: string | null; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 40em)');
  const scenario = useScenario(scenarioId);
  const data = scenario.data?.view === 'admin' ? scenario.data : undefined;

  return (
    <Modal
      opened={scenarioId !== null}
      onClose={onClose}
      size="xl"
      fullScreen={narrow}
      closeButtonProps={{ 'aria-label': 'Close the preview' }}
      title={data ? `Preview: ${data.name}` : 'Preview'}
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {scenario.isPending ? (
        <Stack role="status" aria-busy="true" aria-label="Loading the scenario">
          <Skeleton height={24} width="60%" />
          <Skeleton height={80} />
          <Skeleton height={160} />
        </Stack>
      ) : scenario.isError ? (
        <LoadError
          title="The scenario could not be loaded"
          error={scenario.error}
          onRetry={() => void scenario.refetch()}
        />
      ) : data ? (
        <Stack gap="md">
          <Group gap="sm">
            <ScenarioTypeBadge type={data.type} />
            <Text size="sm" className="tabular-nums">
              {difficultyText(data.difficulty)} · {difficultyName(data.difficulty)}
            </Text>
            <Text size="sm" className="tabular-nums">
              {data.stepCount} steps
            </Text>
            <Badge variant="outline" color="gray" size="sm">
              {data.origin === 'builtin' ? 'Built-in' : 'Uploaded'}
            </Badge>
            <Text size="xs" c="dimmed" ff="monospace">
              id: {data.id}
            </Text>
          </Group>
          <Text size="sm">{data.description}</Text>
          {data.sources && data.sources.length > 0 && (
            <div>
              <Text size="sm" fw={600}>
                Sources
              </Text>
              <List size="sm" spacing={2}>
                {data.sources.map((source) => (
                  <List.Item key={source.url}>
                    <Anchor href={source.url} target="_blank" rel="noopener noreferrer" size="sm">
                      {source.title}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
            </div>
          )}
          <Tabs defaultValue="steps" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="steps" leftSection={<IconListDetails size={16} aria-hidden />}>
                Steps
              </Tabs.Tab>
              <Tabs.Tab value="diagram" leftSection={<IconBinaryTree size={16} aria-hidden />}>
                Branch diagram
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="steps" pt="md">
              <ScenarioSteps scenario={data} />
            </Tabs.Panel>
            <Tabs.Panel value="diagram" pt="md">
              <BranchDiagram name={data.name} steps={data.steps} />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      ) : (
        <Text role="alert">Only administrators can preview a whole scenario.</Text>
      )}
    </Modal>
  );
}
