import type { CohortDetail, ProgrammePerson } from '@tradecraft/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArchive, IconDownload, IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { DownloadButton } from '../../../ui/download-button';
import { LoadError } from '../../../ui/load-error';
import { getScenarioChoices, scenarioChoicesKey, useCancelAssignment, useCreateAssignments } from '../api/assignments';
import {
  cohortCsvUrl,
  cohortLayerUrl,
  useChangeMembers,
  useCohort,
  useCoverage,
  useTraineeSearch,
  useUpdateCohort,
} from '../api/cohorts';
import { getPathChoices, pathChoicesKey } from '../api/paths';
import { SearchSelect } from '../../../ui/search-select';
import { CoverageHeatmap } from '../components/coverage-heatmap';
import { RemediationModal } from '../components/remediation-modal';
import { formatWhen, StatusBadge } from '../components/status-badge';
import { NAVIGATOR_LAYER_FILENAME } from '@tradecraft/shared';

const fullName = (person: ProgrammePerson) => `${person.firstName} ${person.lastName}`.trim() || person.email;

function Header({ cohort }: { cohort: CohortDetail }) {
  const update = useUpdateCohort();
  const [name, setName] = useState(cohort.name);
  const rename = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ id: cohort.id, name });
  };
  return (
    <Stack gap="xs">
      <Anchor component={Link} to={paths.cohorts} size="sm">
        All cohorts
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Title order={1}>
          {cohort.name} {cohort.archived && <Badge color="gray">Archived</Badge>}
        </Title>
        <Button
          variant="default"
          leftSection={<IconArchive size={16} aria-hidden />}
          loading={update.isPending && update.variables?.archived !== undefined}
          onClick={() => update.mutate({ id: cohort.id, archived: !cohort.archived })}
        >
          {cohort.archived ? 'Restore cohort' : 'Archive cohort'}
        </Button>
      </Group>
      <Group component="form" onSubmit={rename} align="flex-end">
        <TextInput
          label="Cohort name"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={120}
          required
        />
        <Button type="submit" variant="light" loading={update.isPending && update.variables?.name !== undefined}>
          Rename
        </Button>
      </Group>
      {update.error && <Alert color="red">{update.error.message}</Alert>}
    </Stack>
  );
}

function Members({ cohort, onRemediate }: { cohort: CohortDetail; onRemediate: (person: ProgrammePerson) => void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const found = useTraineeSearch(debounced);
  const change = useChangeMembers();
  const [toAdd, setToAdd] = useState<string[]>([]);
  const [toRemove, setToRemove] = useState<string[]>([]);
  const memberIds = new Set(cohort.members.map((member) => member.id));
  const candidates = (found.data?.items ?? []).filter((person) => !memberIds.has(person.id));
  const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const add = (userIds: string[]) =>
    change.mutate({ id: cohort.id, change: 'add', userIds }, { onSuccess: () => setToAdd([]) });

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="members-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="members-heading">
          Members ({cohort.members.length})
        </Title>
        {change.error && <Alert color="red">{change.error.message}</Alert>}
        {!cohort.archived && (
          <Stack gap="xs">
            <TextInput
              label="Find trainees by name or email"
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              placeholder="e.g. analyst or @example.com"
            />
            {candidates.length > 0 && (
              <>
                <Stack gap={4} role="group" aria-label="Trainees found">
                  {candidates.map((person) => (
                    <Checkbox
                      key={person.id}
                      label={`${fullName(person)} (${person.email})`}
                      checked={toAdd.includes(person.id)}
                      onChange={() => setToAdd((list) => toggle(list, person.id))}
                    />
                  ))}
                </Stack>
                {found.data?.more && (
                  <Text size="sm" c="dimmed">
                    More trainees match: narrow the search.
                  </Text>
                )}
                <Group>
                  <Button
                    size="xs"
                    leftSection={<IconUserPlus size={14} aria-hidden />}
                    disabled={toAdd.length === 0}
                    loading={change.isPending && change.variables?.change === 'add'}
                    onClick={() => add(toAdd)}
                  >
                    Add selected ({toAdd.length})
                  </Button>
                  <Button size="xs" variant="light" onClick={() => add(candidates.map((person) => person.id))}>
                    Add all {candidates.length} found
                  </Button>
                </Group>
              </>
            )}
          </Stack>
        )}
        {cohort.members.length === 0 ? (
          <Text c="dimmed">No members yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table aria-labelledby="members-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <VisuallyHidden>Select</VisuallyHidden>
                  </Table.Th>
                  <Table.Th>Trainee</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Practice</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {cohort.members.map((member) => (
                  <Table.Tr key={member.id}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${fullName(member)}`}
                        checked={toRemove.includes(member.id)}
                        onChange={() => setToRemove((list) => toggle(list, member.id))}
                      />
                    </Table.Td>
                    <Table.Td>{fullName(member)}</Table.Td>
                    <Table.Td>{member.email}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => onRemediate(member)}
                        aria-label={`What ${fullName(member)} should practise`}
                      >
                        What to practise
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {toRemove.length > 0 && (
          <Group>
            <Button
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconUserMinus size={14} aria-hidden />}
              loading={change.isPending && change.variables?.change === 'remove'}
              onClick={() =>
                change.mutate(
                  { id: cohort.id, change: 'remove', userIds: toRemove },
                  { onSuccess: () => setToRemove([]) },
                )
              }
            >
              Remove selected ({toRemove.length})
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function AssignForm({ cohort }: { cohort: CohortDetail }) {
  const [kind, setKind] = useState<'scenario' | 'path'>('path');
  const [target, setTarget] = useState<string | null>(null);
  const [due, setDue] = useState('');
  const [note, setNote] = useState('');
  const assign = useCreateAssignments();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    assign.mutate(
      {
        ...(kind === 'scenario' ? { scenarioId: target } : { pathId: target }),
        cohortId: cohort.id,
        dueAt: due ? new Date(due).toISOString() : null,
        note,
      },
      {
        onSuccess: () => {
          setTarget(null);
          setDue('');
          setNote('');
        },
      },
    );
  };
  if (cohort.archived) return null;
  return (
    <Paper withBorder radius="md" p="md" component="form" onSubmit={submit} aria-labelledby="assign-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="assign-heading">
          Assign training
        </Title>
        <SegmentedControl
          value={kind}
          onChange={(value) => {
            setKind(value as 'scenario' | 'path');
            setTarget(null);
          }}
          data={[
            { value: 'path', label: 'Learning path' },
            { value: 'scenario', label: 'Scenario' },
          ]}
          aria-label="What to assign"
        />
        <SearchSelect
          key={kind}
          label={kind === 'scenario' ? 'Scenario' : 'Learning path'}
          {...(kind === 'scenario'
            ? { queryKey: scenarioChoicesKey, fetchChoices: getScenarioChoices }
            : { queryKey: pathChoicesKey, fetchChoices: getPathChoices })}
          value={target}
          onChange={setTarget}
          required
          nothingFoundMessage={
            kind === 'path' ? 'No learning path has that in its name' : 'No published scenario has that in its name'
          }
        />
        <Group grow align="flex-start">
          <TextInput
            type="datetime-local"
            label="Due (optional)"
            value={due}
            onChange={(event) => setDue(event.currentTarget.value)}
          />
        </Group>
        <Textarea
          label="Note (optional)"
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
        />
        {assign.error && <Alert color="red">{assign.error.message}</Alert>}
        <Group>
          <Button type="submit" disabled={!target} loading={assign.isPending}>
            Assign to cohort
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Matrix({ cohort }: { cohort: CohortDetail }) {
  const cancel = useCancelAssignment();
  if (cohort.assignments.length === 0) return <Text c="dimmed">Nothing assigned yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={240 + 160 * cohort.assignments.length}>
      <Table aria-labelledby="matrix-heading" withColumnBorders>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Trainee</Table.Th>
            {cohort.assignments.map((assignment) => (
              <Table.Th key={assignment.id} scope="col">
                <Stack gap={2}>
                  <Text size="sm" fw={600}>
                    {assignment.targetName}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {assignment.kind === 'path' ? 'Path' : 'Scenario'}
                    {assignment.dueAt ? ` · due ${formatWhen(assignment.dueAt)}` : ''}
                  </Text>
                  <Anchor
                    component="button"
                    type="button"
                    size="xs"
                    c="red.8"
                    onClick={() => {
                      if (window.confirm(`Cancel the assignment "${assignment.targetName}" for this cohort?`))
                        cancel.mutate(assignment.id);
                    }}
                  >
                    Cancel assignment
                  </Anchor>
                </Stack>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {cohort.matrix.map((row) => (
            <Table.Tr key={row.trainee.id}>
              <Table.Th scope="row" fw={500}>
                {fullName(row.trainee)}
              </Table.Th>
              {row.cells.map((cell, index) => (
                <Table.Td key={cohort.assignments[index]!.id}>
                  {cell && (
                    <Group gap={6}>
                      <StatusBadge status={cell.status} />
                      {cell.bestPercent !== null && (
                        <Text size="sm" className="tabular-nums">
                          {cell.bestPercent}%
                        </Text>
                      )}
                    </Group>
                  )}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export default function CohortPage() {
  const { cohortId = '' } = useParams();
  const cohort = useCohort(cohortId);
  const coverage = useCoverage(cohortId);
  const [remediate, setRemediate] = useState<ProgrammePerson | null>(null);
  usePageTitle(cohort.data?.name);
  if (cohort.isPending) return <Skeleton height={300} role="status" aria-busy="true" aria-label="Loading the cohort" />;
  if (cohort.isError)
    return (
      <LoadError title="The cohort could not be loaded" error={cohort.error} onRetry={() => void cohort.refetch()} />
    );
  const detail = cohort.data;
  return (
    <Stack gap="lg">
      <Header key={detail.name} cohort={detail} />
      <Stack gap="sm" component="section" aria-labelledby="matrix-heading">
        <Group justify="space-between">
          <Title order={2} size="h3" id="matrix-heading">
            Progress
          </Title>
          <Group gap="xs">
            <DownloadButton href={cohortCsvUrl(detail.id)} filename="cohort.csv" variant="default">
              CSV
            </DownloadButton>
          </Group>
        </Group>
        <Matrix cohort={detail} />
      </Stack>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="overdue-heading">
        <Title order={2} size="h3" id="overdue-heading" mb="xs">
          Overdue ({detail.overdue.length})
        </Title>
        {detail.overdue.length === 0 ? (
          <Text c="dimmed">Nobody is overdue.</Text>
        ) : (
          <Stack gap={4} component="ul" style={{ margin: 0, paddingLeft: 20 }}>
            {detail.overdue.map((entry) => (
              <li key={`${entry.trainee.id}-${entry.assignmentId}`}>
                <Text size="sm">
                  <strong>{fullName(entry.trainee)}</strong>: {entry.targetName}, due {formatWhen(entry.dueAt)}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Paper>
      <AssignForm cohort={detail} />
      <Members cohort={detail} onRemediate={setRemediate} />
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="coverage-heading">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} size="h3" id="coverage-heading">
              ATT&amp;CK coverage
            </Title>
            <Button
              component="a"
              href={cohortLayerUrl(detail.id)}
              download={NAVIGATOR_LAYER_FILENAME}
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              Navigator layer
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            Share of first answers that were right, per technique, over every run of the cohort&apos;s members.
          </Text>
          {coverage.data ? (
            <CoverageHeatmap coverage={coverage.data} />
          ) : coverage.isError ? (
            <LoadError
              title="Coverage could not be loaded"
              error={coverage.error}
              onRetry={() => void coverage.refetch()}
            />
          ) : (
            <Skeleton height={80} />
          )}
        </Stack>
      </Paper>
      <RemediationModal trainee={remediate} onClose={() => setRemediate(null)} />
    </Stack>
  );
}
