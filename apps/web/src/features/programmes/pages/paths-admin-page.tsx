import type { PathSummary } from '@tradecraft/shared';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../ui/load-error';
import { useScenarioChoices } from '../api/assignments';
import { useCreatePath, usePathCertificates, usePaths, useRevokeCertificate, useUpdatePath } from '../api/paths';
import { formatWhen } from '../components/status-badge';

function NewPath() {
  const scenarios = useScenarioChoices();
  const create = useCreatePath();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [unlock, setUnlock] = useState<'sequential' | 'open'>('sequential');
  const [scenarioIds, setScenarioIds] = useState<string[]>([]);
  const labels = new Map((scenarios.data ?? []).map((choice) => [choice.value, choice.label]));
  const move = (index: number, by: number) =>
    setScenarioIds((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      next.splice(index + by, 0, item!);
      return next;
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, description, unlock, scenarioIds },
      {
        onSuccess: () => {
          setName('');
          setDescription('');
          setScenarioIds([]);
        },
      },
    );
  };
  return (
    <Paper withBorder radius="md" p="md" component="form" onSubmit={submit} aria-labelledby="new-path-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="new-path-heading">
          New learning path
        </Title>
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
          <Text size="sm" fw={500} id="unlock-label">
            Unlocking
          </Text>
          <SegmentedControl
            aria-labelledby="unlock-label"
            value={unlock}
            onChange={(value) => setUnlock(value as 'sequential' | 'open')}
            data={[
              { value: 'sequential', label: 'One after another' },
              { value: 'open', label: 'All open' },
            ]}
          />
        </Stack>
        <MultiSelect
          label="Scenarios (in the order picked)"
          data={scenarios.data ?? []}
          value={scenarioIds}
          onChange={setScenarioIds}
          searchable
          required
        />
        {scenarioIds.length > 1 && (
          <Stack gap={4} component="ol" style={{ margin: 0, paddingLeft: 20 }} aria-label="Order of the scenarios">
            {scenarioIds.map((id, index) => (
              <li key={id}>
                <Group gap="xs">
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
        {create.error && <Alert color="red">{create.error.message}</Alert>}
        <Group>
          <Button type="submit" loading={create.isPending} disabled={scenarioIds.length === 0 || !name.trim()}>
            Create path
          </Button>
        </Group>
      </Stack>
    </Paper>
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

export default function PathsAdminPage() {
  const learningPaths = usePaths(true);
  const update = useUpdatePath();
  const [shown, setShown] = useState<PathSummary | null>(null);
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
      <Stack gap="xs" component="section" aria-labelledby="paths-heading">
        <Title order={2} size="h3" id="paths-heading">
          All paths
        </Title>
        {learningPaths.isPending ? (
          <Skeleton height={100} />
        ) : learningPaths.isError ? (
          <LoadError
            title="Paths could not be loaded"
            error={learningPaths.error}
            onRetry={() => void learningPaths.refetch()}
          />
        ) : learningPaths.data.items.length === 0 ? (
          <Text c="dimmed">No learning paths yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-labelledby="paths-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Scenarios</Table.Th>
                  <Table.Th>Unlocking</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {learningPaths.data.items.map((path) => (
                  <Table.Tr key={path.id}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.learningPath(path.id)}>
                        {path.name}
                      </Anchor>{' '}
                      {path.archived && <Badge color="gray">Archived</Badge>}
                    </Table.Td>
                    <Table.Td className="tabular-nums">{path.scenarioCount}</Table.Td>
                    <Table.Td>{path.unlock === 'sequential' ? 'One after another' : 'All open'}</Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        <Button size="compact-xs" variant="light" onClick={() => setShown(path)}>
                          Certificates
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          onClick={() => update.mutate({ id: path.id, archived: !path.archived })}
                        >
                          {path.archived ? 'Restore' : 'Archive'}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <Certificates path={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
