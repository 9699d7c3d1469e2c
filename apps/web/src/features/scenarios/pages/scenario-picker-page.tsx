import {
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconFilterOff, IconSearch, IconTargetOff } from '@tabler/icons-react';
import { hasRole } from '@tradecraft/shared';
import { useDebouncedValue } from '@mantine/hooks';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useDifficulty } from '../api/get-difficulty';
import { useScenarios } from '../api/get-scenarios';
import { LoadError } from '../../../ui/load-error';
import { useRevealedCount } from '../../../ui/use-revealed-count';
import { ScenarioCard } from '../components/scenario-card';
import {
  ALL,
  applyView,
  DEFAULT_VIEW,
  filterOptions,
  isNarrowed,
  PICKER_SORTS,
  readPickerView,
  SORT_LABELS,
  writePickerView,
  type PickerSort,
  type PickerView,
} from '../lib/picker-filters';
import { difficultyName, difficultyText } from '../lib/difficulty';

const GRID_COLS = { base: 1, sm: 2, lg: 3 };
const SORT_OPTIONS = PICKER_SORTS.map((sort) => ({ value: sort, label: SORT_LABELS[sort] }));
// A closed list is not in the page: nothing hidden to build and place while the cards are drawn.
const CLOSED_UNMOUNTED = { keepMounted: false };

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
  // The filters, the search and the sort live in the address, so a link (or Back) shows the same view.
  const [searchParams, setSearchParams] = useSearchParams();
  const fromAddress = useMemo(() => readPickerView(searchParams), [searchParams]);
  // Changes made before the address catches up (a filter picked while the search settles) build on each other.
  const latest = useRef(fromAddress);
  useEffect(() => {
    latest.current = fromAddress;
  }, [fromAddress]);
  const setView = (change: Partial<PickerView>) => {
    latest.current = { ...latest.current, ...change };
    setSearchParams(writePickerView(latest.current), { replace: true, preventScrollReset: true });
  };
  // The search filters as it is typed and reaches the address once typing pauses.
  const [query, setQuery] = useState(fromAddress.q);
  const [settledQuery] = useDebouncedValue(query, 250);
  useEffect(() => {
    if (settledQuery !== latest.current.q) setView({ q: settledQuery });
    // Only a settled query writes the address; the address's other fields are read when it does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settledQuery]);
  const view = useMemo(() => ({ ...fromAddress, q: query }), [fromAddress, query]);

  // The list arrives as a deferred render, which React draws in slices between which the page stays responsive,
  // not as one long task; the placeholders stay until it is drawn.
  const list = useDeferredValue(scenarios.data);
  const options = useMemo(() => filterOptions(list ?? []), [list]);
  const shown = useMemo(() => applyView(list ?? [], view), [list, view]);
  const filtered = isNarrowed(view);
  // The first screen at once, the rest six cards per task: each batch is a short task, never a long one.
  const revealed = useRevealedCount(shown.length, 12, 6);
  // Built once per list: the options of the Selects re-render with the page, not on every keystroke of the search.
  const difficultyOptions = useMemo(
    () => [
      { value: ALL, label: 'All Difficulties' },
      ...options.difficulties.map((level) => ({
        value: String(level),
        label: `${difficultyText(level)} · ${difficultyName(level)}`,
      })),
    ],
    [options.difficulties],
  );
  const typeOptions = useMemo(
    () => [{ value: ALL, label: 'All Types' }, ...options.types.map((type) => ({ value: type, label: type }))],
    [options.types],
  );

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

      {list === undefined && !scenarios.isError ? (
        <SimpleGrid cols={GRID_COLS} role="status" aria-busy="true" aria-label="Loading scenarios">
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
      ) : list === undefined ? null : list.length === 0 ? (
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
          <Group align="flex-end" gap="md" wrap="wrap" role="search" aria-label="Find a scenario">
            <TextInput
              type="search"
              label="Search"
              placeholder="Name, description or technique (T1566)"
              w={{ base: '100%', xs: 320 }}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
            />
            <Select
              label="Difficulty"
              w={{ base: '100%', xs: 220 }}
              allowDeselect={false}
              value={view.difficulty}
              onChange={(value) => setView({ difficulty: value ?? ALL })}
              data={difficultyOptions}
              comboboxProps={CLOSED_UNMOUNTED}
            />
            <Select
              label="Type"
              w={{ base: '100%', xs: 220 }}
              allowDeselect={false}
              value={view.type}
              onChange={(value) => setView({ type: value ?? ALL })}
              data={typeOptions}
              comboboxProps={CLOSED_UNMOUNTED}
            />
            <Select
              label="Sort by"
              w={{ base: '100%', xs: 200 }}
              allowDeselect={false}
              value={view.sort}
              onChange={(value) => setView({ sort: (value as PickerSort | null) ?? DEFAULT_VIEW.sort })}
              data={SORT_OPTIONS}
              comboboxProps={CLOSED_UNMOUNTED}
            />
            <Text size="sm" c="dimmed" role="status" aria-live="polite" className="tabular-nums" pb={8}>
              {filtered
                ? `Showing ${shown.length} of ${list.length} scenarios`
                : `${list.length} ${list.length === 1 ? 'scenario' : 'scenarios'}`}
            </Text>
          </Group>

          {shown.length === 0 ? (
            <EmptyState title="No scenarios match these filters">
              <Text>Try other words, another difficulty or type, or show every scenario again.</Text>
              <Button
                variant="light"
                leftSection={<IconFilterOff size={16} aria-hidden />}
                onClick={() => {
                  setQuery('');
                  setView({ q: '', difficulty: ALL, type: ALL });
                }}
              >
                Reset filters
              </Button>
            </EmptyState>
          ) : (
            <SimpleGrid cols={GRID_COLS} spacing="md">
              {shown.slice(0, revealed).map((scenario) => (
                <ScenarioCard key={scenario.id} scenario={scenario} search={view.q} />
              ))}
            </SimpleGrid>
          )}
        </>
      )}
    </Stack>
  );
}
