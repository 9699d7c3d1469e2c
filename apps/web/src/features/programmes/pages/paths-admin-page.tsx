import type { PathSummary } from '@tradecraft/shared';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../ui/load-error';
import { getScenarioChoices, scenarioChoicesKey } from '../api/assignments';
import { SearchMultiSelect } from '../../../ui/search-select';
import { ApiError } from '../../../lib/api-client';
import {
  useCreatePath,
  usePath,
  usePathCertificates,
  usePaths,
  useRevokeCertificate,
  useUpdatePath,
} from '../api/paths';
import { formatWhen } from '../components/status-badge';
import { NameListSection, useNameListTable } from '../components/name-list';

interface PathFields {
  name: string;
  description: string;
  unlock: 'sequential' | 'open';
  scenarioIds: string[];
}

/** The names of a path's scenarios, by id (a saved path's steps). */
type ScenarioNames = ReadonlyMap<string, string>;

/**
 * The fields of a learning path: name, description, unlocking, and its scenarios in order (picked, removed with
 * the picker, reordered with the arrows). Creating and editing share it.
 */
function PathForm({
  initial,
  initialNames,
  idPrefix,
  submitLabel,
  pending,
  error,
  onSubmit,
  children,
}: {
  initial: PathFields;
  initialNames?: ScenarioNames;
  idPrefix: string;
  submitLabel: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (fields: PathFields, reset: () => void) => void;
  children?: ReactNode;
}) {
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  const [unlock, setUnlock] = useState(initial.unlock);
  const [scenarioIds, setScenarioIds] = useState(initial.scenarioIds);
  // A scenario of the path that is no longer published still shows (by its name in the path) until it is removed.
  const [labels, setLabels] = useState<ScenarioNames>(() => new Map(initialNames));
  const move = (index: number, by: number) =>
    setScenarioIds((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      next.splice(index + by, 0, item!);
      return next;
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ name, description, unlock, scenarioIds }, () => {
      setName('');
      setDescription('');
      setScenarioIds([]);
    });
  };
  return (
    <Stack gap="sm" component="form" onSubmit={submit}>
      <TextInput
        label="Name"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        required
        maxLength={120}
      />
      <Textarea
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        maxLength={2000}
        autosize
        minRows={2}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id={`${idPrefix}-unlock-label`}>
          Unlocking
        </Text>
        <SegmentedControl
          aria-labelledby={`${idPrefix}-unlock-label`}
          value={unlock}
          onChange={(value) => setUnlock(value as 'sequential' | 'open')}
          data={[
            { value: 'sequential', label: 'One after another' },
            { value: 'open', label: 'All open' },
          ]}
        />
      </Stack>
      <SearchMultiSelect
        label="Scenarios (in the order picked)"
        queryKey={scenarioChoicesKey}
        fetchChoices={getScenarioChoices}
        value={scenarioIds}
        knownLabels={labels}
        onChange={(ids, names) => {
          setScenarioIds(ids);
          setLabels(names);
        }}
        nothingFoundMessage="No published scenario has that in its name"
        required
      />
      {scenarioIds.length > 1 && (
        <Stack gap={4} component="ol" style={{ margin: 0, paddingLeft: 20 }} aria-label="Order of the scenarios">
          {scenarioIds.map((id, index) => (
            <li key={id}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm">{labels.get(id) ?? id}</Text>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                  aria-label={`Move ${labels.get(id) ?? id} up`}
                >
                  <IconArrowUp size={14} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  disabled={index === scenarioIds.length - 1}
                  onClick={() => move(index, 1)}
                  aria-label={`Move ${labels.get(id) ?? id} down`}
                >
                  <IconArrowDown size={14} aria-hidden />
                </ActionIcon>
              </Group>
            </li>
          ))}
        </Stack>
      )}
      {error && <Alert color="red">{error.message}</Alert>}
      {children}
      <Group>
        <Button type="submit" loading={pending} disabled={scenarioIds.length === 0 || !name.trim()}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}

function NewPath() {
  const create = useCreatePath();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="new-path-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="new-path-heading">
          New learning path
        </Title>
        <PathForm
          idPrefix="new-path"
          initial={{ name: '', description: '', unlock: 'sequential', scenarioIds: [] }}
          submitLabel="Create path"
          pending={create.isPending}
          error={create.error}
          onSubmit={(fields, reset) => create.mutate(fields, { onSuccess: reset })}
        />
      </Stack>
    </Paper>
  );
}

/**
 * Edits a path from the revision it was opened at: someone else's change meanwhile is refused (409) and the form
 * offers to reload. Trainees' progress follows the new steps; certificates already issued stay valid.
 */
function EditPath({ pathId, onClose }: { pathId: string | null; onClose: () => void }) {
  const path = usePath(pathId ?? '', pathId !== null);
  const update = useUpdatePath();
  const stale = update.error instanceof ApiError && update.error.status === 409;
  return (
    <Modal opened={pathId !== null} onClose={onClose} title="Edit learning path" size="lg">
      {path.isPending ? (
        <Skeleton height={240} />
      ) : path.isError ? (
        <LoadError title="The path could not be loaded" error={path.error} onRetry={() => void path.refetch()} />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Trainees&apos; progress follows the new list of scenarios at once (a scenario added must be passed, one
            removed no longer counts). Certificates already issued stay valid.
          </Text>
          <PathForm
            key={`${path.data.id}@${path.data.revision}`}
            idPrefix="edit-path"
            initialNames={new Map(path.data.steps.map((step) => [step.scenarioId, step.scenarioName]))}
            initial={{
              name: path.data.name,
              description: path.data.description,
              unlock: path.data.unlock,
              scenarioIds: path.data.steps.map((step) => step.scenarioId),
            }}
            submitLabel="Save changes"
            pending={update.isPending}
            error={update.error}
            onSubmit={(fields) =>
              update.mutate({ id: path.data.id, revision: path.data.revision, ...fields }, { onSuccess: onClose })
            }
          >
            {stale && (
              <Group>
                <Button
                  variant="light"
                  onClick={() => {
                    update.reset();
                    void path.refetch();
                  }}
                >
                  Reload the path (your changes are dropped)
                </Button>
              </Group>
            )}
          </PathForm>
        </Stack>
      )}
    </Modal>
  );
}

function Certificates({ path, onClose }: { path: PathSummary | null; onClose: () => void }) {
  const certificates = usePathCertificates(path?.id ?? null);
  const revoke = useRevokeCertificate();
  return (
    <Modal opened={path !== null} onClose={onClose} title={`Certificates: ${path?.name ?? ''}`} size="lg">
      {certificates.isPending ? (
        <Skeleton height={80} />
      ) : certificates.isError ? (
        <LoadError
          title="Certificates could not be loaded"
          error={certificates.error}
          onRetry={() => void certificates.refetch()}
        />
      ) : certificates.data.items.length === 0 ? (
        <Text c="dimmed">No certificates issued yet.</Text>
      ) : (
        <Stack gap="xs">
          {revoke.error && <Alert color="red">{revoke.error.message}</Alert>}
          {certificates.data.items.map((certificate) => (
            <Group key={certificate.id} justify="space-between">
              <Stack gap={0}>
                <Text fw={600}>{certificate.holderName}</Text>
                <Text size="sm" c="dimmed">
                  Issued {formatWhen(certificate.issuedAt)} ·{' '}
                  <Anchor component={Link} to={certificate.verifyPath} size="sm">
                    verification page
                  </Anchor>
                </Text>
              </Stack>
              {certificate.revokedAt ? (
                <Badge color="red">Revoked</Badge>
              ) : (
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  onClick={() => {
                    if (
                      window.confirm(
                        `Revoke ${certificate.holderName}'s certificate? Its verification page will say revoked.`,
                      )
                    )
                      revoke.mutate(certificate.id);
                  }}
                >
                  Revoke
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Modal>
  );
}

const column = createColumnHelper<PathSummary>();

export default function PathsAdminPage() {
  const table = useNameListTable('learning-paths');
  const learningPaths = usePaths(table.query);
  const update = useUpdatePath();
  const [shown, setShown] = useState<PathSummary | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const columns = [
    column.accessor('name', {
      header: 'Name',
      size: 260,
      enableSorting: false,
      cell: (info) => (
        <>
          <Anchor component={Link} to={paths.learningPath(info.row.original.id)}>
            {info.getValue()}
          </Anchor>{' '}
          {info.row.original.archived && <Badge color="gray">Archived</Badge>}
        </>
      ),
    }),
    column.accessor('scenarioCount', {
      header: 'Scenarios',
      size: 110,
      enableSorting: false,
      meta: { align: 'right' },
    }),
    column.accessor('unlock', {
      header: 'Unlocking',
      size: 160,
      enableSorting: false,
      cell: (info) => (info.getValue() === 'sequential' ? 'One after another' : 'All open'),
    }),
    column.display({
      id: 'actions',
      header: 'Actions',
      size: 280,
      meta: { actions: true },
      cell: ({ row: { original: path } }) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setEditing(path.id)}
            aria-label={`Edit ${path.name}`}
          >
            Edit
          </Button>
          <Button size="compact-xs" variant="light" onClick={() => setShown(path)}>
            Certificates
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => update.mutate({ id: path.id, revision: path.revision, archived: !path.archived })}
          >
            {path.archived ? 'Restore' : 'Archive'}
          </Button>
        </Group>
      ),
    }),
  ];
  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to={paths.cohorts} size="sm">
          Cohorts
        </Anchor>
        <Title order={1}>Learning paths</Title>
        <Text c="dimmed">Scenarios in order; completing a path earns a certificate anyone can verify.</Text>
      </div>
      <NewPath />
      <NameListSection
        headingId="paths-heading"
        title="All paths"
        label="Learning paths"
        placeholder="Part of a path's name"
        emptyMessage="No learning paths yet."
        searchedEmptyMessage="No learning path has that in its name. Check the spelling or clear the search."
        itemName="paths"
        table={table}
        columns={columns}
        result={learningPaths}
      />
      {update.error && <Alert color="red">{update.error.message}</Alert>}
      <Certificates path={shown} onClose={() => setShown(null)} />
      <EditPath pathId={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
