import { Button, Card, Group, Select, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFilterOff, IconTargetOff } from '@tabler/icons-react';
import { hasRole } from '@tradecraft/shared';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useDifficulty } from '../api/get-difficulty';
import { useScenarios } from '../api/get-scenarios';
import { LoadError } from '../../../ui/load-error';
import { ScenarioCard } from '../components/scenario-card';
import { ALL, applyFilters, filterOptions, NO_FILTERS, type PickerFilters } from '../lib/picker-filters';
import { difficultyName, difficultyText } from '../lib/difficulty';

const GRID_COLS = { base: 1, sm: 2, lg: 3 };

function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="xl">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
          <IconTargetOff size={26} />
        </ThemeIcon>
        <Title order={2} size="h3">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

export default function ScenarioPickerPage() {
  const scenarios = useScenarios();
  const difficulty = useDifficulty();
  const { user } = useSession();
  const [filters, setFilters] = useState<PickerFilters>(NO_FILTERS);

  const options = useMemo(() => filterOptions(scenarios.data ?? []), [scenarios.data]);
  const shown = useMemo(() => applyFilters(scenarios.data ?? [], filters), [scenarios.data, filters]);
  const filtered = filters.difficulty !== ALL || filters.type !== ALL;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Select a Scenario</Title>
        <Text c="dimmed">
          Pick a branching simulation to train on.
          {difficulty.data !== undefined &&
            ` Recommended scenarios match the platform difficulty, ${difficultyText(difficulty.data)} (${difficultyName(difficulty.data)}).`}
        </Text>
      </div>

      {scenarios.isPending ? (
        <SimpleGrid cols={GRID_COLS} aria-busy="true" aria-label="Loading scenarios">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} height={230} radius="md" />
          ))}
        </SimpleGrid>
      ) : scenarios.isError ? (
        <LoadError
          title="The scenarios could not be loaded"
          error={scenarios.error}
          onRetry={() => void scenarios.refetch()}
        />
      ) : scenarios.data.length === 0 ? (
        <EmptyState title="No scenarios yet">
          {hasRole(user?.role, 'admin') ? (
            <>
              <Text>Upload a scenario file to publish the first one.</Text>
              <Button component={Link} to={paths.upload}>
                Upload Scenario
              </Button>
            </>
          ) : (
            <Text>
              No simulations have been published yet. Ask your administrator to publish one, then come back here.
            </Text>
          )}
        </EmptyState>
      ) : (
        <>
          <Group align="flex-end" gap="md" wrap="wrap">
            <Select
              label="Difficulty"
              w={{ base: '100%', xs: 220 }}
              allowDeselect={false}
              value={filters.difficulty}
              onChange={(value) => setFilters((current) => ({ ...current, difficulty: value ?? ALL }))}
              data={[
                { value: ALL, label: 'All Difficulties' },
                ...options.difficulties.map((level) => ({
                  value: String(level),
                  label: `${difficultyText(level)} · ${difficultyName(level)}`,
                })),
              ]}
            />
            <Select
              label="Type"
              w={{ base: '100%', xs: 220 }}
              allowDeselect={false}
              value={filters.type}
              onChange={(value) => setFilters((current) => ({ ...current, type: value ?? ALL }))}
              data={[
                { value: ALL, label: 'All Types' },
                ...options.types.map((type) => ({ value: type, label: type })),
              ]}
            />
            <Text size="sm" c="dimmed" role="status" aria-live="polite" className="tabular-nums" pb={8}>
              {filtered
                ? `Showing ${shown.length} of ${scenarios.data.length} scenarios`
                : `${scenarios.data.length} ${scenarios.data.length === 1 ? 'scenario' : 'scenarios'}`}
            </Text>
          </Group>

          {shown.length === 0 ? (
            <EmptyState title="No scenarios match these filters">
              <Text>Try another difficulty or type, or show every scenario again.</Text>
              <Button
                variant="light"
                leftSection={<IconFilterOff size={16} aria-hidden />}
                onClick={() => setFilters(NO_FILTERS)}
              >
                Reset filters
              </Button>
            </EmptyState>
          ) : (
            <SimpleGrid cols={GRID_COLS} spacing="md">
              {shown.map((scenario) => (
                <ScenarioCard key={scenario.id} scenario={scenario} />
              ))}
            </SimpleGrid>
          )}
        </>
      )}
    </Stack>
  );
}
