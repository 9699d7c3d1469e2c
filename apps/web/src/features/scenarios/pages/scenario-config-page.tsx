import type { ScenarioListItem } from '@tradecraft/shared';
import {
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconChevronDown,
  IconChevronUp,
  IconEye,
  IconPencil,
  IconPlus,
  IconSelector,
  IconTrash,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { useScenarios } from '../api/get-scenarios';
import { DeleteScenarioModal } from '../components/delete-scenario-modal';
import { LoadError } from '../../../ui/load-error';
import { ScenarioPreviewModal } from '../components/scenario-preview-modal';
import { ScenarioTypeBadge } from '../components/scenario-type';
import { difficultyName } from '../lib/difficulty';
import { focusableScroll } from '../../../ui/focusable-scroll';
import { nextSort, sortScenarios, type SortColumn, type SortState } from '../lib/sort-scenarios';

function SortHeader({
  column,
  label,
  sort,
  onSort,
}: {
  column: SortColumn;
  label: string;
  sort: SortState | null;
  onSort: (column: SortColumn) => void;
}) {
  const active = sort?.column === column;
  const Icon = !active ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        onClick={() => onSort(column)}
        fw={700}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {label}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}

export default function ScenarioConfigPage() {
  const scenarios = useScenarios();
  const [sort, setSort] = useState<SortState | null>(null);
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ScenarioListItem | null>(null);
  const rows = useMemo(() => sortScenarios(scenarios.data ?? [], sort), [scenarios.data, sort]);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>Scenario Configurator</Title>
          <Text c="dimmed">
            Review every published scenario, preview its steps and branches, and remove the ones you retire.
          </Text>
        </div>
        <Button component={Link} to={paths.newScenario} leftSection={<IconPlus size={16} aria-hidden />}>
          New scenario
        </Button>
      </Group>

      {scenarios.isPending ? (
        <Stack role="status" aria-busy="true" aria-label="Loading scenarios" gap="xs">
          {[0, 1, 2, 3].map((index) => (
            <Skeleton key={index} height={40} />
          ))}
        </Stack>
      ) : scenarios.isError ? (
        <LoadError
          title="The scenarios could not be loaded"
          error={scenarios.error}
          onRetry={() => void scenarios.refetch()}
        />
      ) : rows.length === 0 ? (
        <Card withBorder radius="md" padding="xl">
          <Stack align="center" gap="sm" ta="center">
            <Text fw={600}>No scenarios found.</Text>
            <Text size="sm">Upload a scenario file to publish one.</Text>
            <Button component={Link} to={paths.upload}>
              Upload Scenario
            </Button>
          </Stack>
        </Card>
      ) : (
        <Card withBorder radius="md" p={0}>
          <Table.ScrollContainer minWidth={760} scrollAreaProps={focusableScroll('Scenarios table')}>
            <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Scenarios">
              <Table.Thead>
                <Table.Tr>
                  <SortHeader
                    column="name"
                    label="Name"
                    sort={sort}
                    onSort={(column) => setSort(nextSort(sort, column))}
                  />
                  <SortHeader
                    column="type"
                    label="Type"
                    sort={sort}
                    onSort={(column) => setSort(nextSort(sort, column))}
                  />
                  <SortHeader
                    column="difficulty"
                    label="Difficulty"
                    sort={sort}
                    onSort={(column) => setSort(nextSort(sort, column))}
                  />
                  <Table.Th ta="right">Steps</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((scenario) => (
                  <Table.Tr key={scenario.id} data-testid="scenario-row">
                    <Table.Td fw={600}>{scenario.name}</Table.Td>
                    <Table.Td>
                      <ScenarioTypeBadge type={scenario.type} />
                    </Table.Td>
                    <Table.Td className="tabular-nums">
                      {scenario.difficulty}
                      <Text span size="sm" c="dimmed">
                        {' '}
                        · {difficultyName(scenario.difficulty)}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right" className="tabular-nums">
                      {scenario.stepCount}
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          leftSection={<IconEye size={14} aria-hidden />}
                          aria-label={`Preview ${scenario.name}`}
                          onClick={() => setPreviewId(scenario.id)}
                        >
                          Preview
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          component={Link}
                          to={paths.editScenario(scenario.id)}
                          leftSection={<IconPencil size={14} aria-hidden />}
                          aria-label={`Edit ${scenario.name}`}
                        >
                          Edit
                        </Button>
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          leftSection={<IconTrash size={14} aria-hidden />}
                          aria-label={`Delete ${scenario.name}`}
                          onClick={() => setDeleting(scenario)}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}

      <ScenarioPreviewModal scenarioId={previewId} onClose={() => setPreviewId(null)} />
      <DeleteScenarioModal scenario={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
