import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../ui/load-error';
import { useCohorts, useCreateCohort } from '../api/cohorts';

export default function CohortsPage() {
  const [archived, setArchived] = useState(false);
  const cohorts = useCohorts(archived);
  const create = useCreateCohort();
  const navigate = useNavigate();
  const [name, setName] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name, {
      onSuccess: (cohort) => {
        setName('');
        void navigate(paths.cohort(cohort.id));
      },
    });
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Cohorts</Title>
        <Text c="dimmed">
          Group trainees, give them scenarios and learning paths with due dates, and follow their progress.
        </Text>
      </div>
      <Group gap="md">
        <Anchor component={Link} to={paths.learningPaths}>
          Learning paths
        </Anchor>
        <Anchor component={Link} to={paths.itemAnalysis}>
          Item analysis
        </Anchor>
      </Group>
      <Paper withBorder radius="md" p="md" component="form" onSubmit={submit} aria-labelledby="new-cohort-heading">
        <Title order={2} size="h4" id="new-cohort-heading" mb="xs">
          New cohort
        </Title>
        <Group align="flex-end">
          <TextInput
            label="Name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={create.error?.message}
            maxLength={120}
            required
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button type="submit" loading={create.isPending} leftSection={<IconPlus size={16} aria-hidden />}>
            Create cohort
          </Button>
        </Group>
      </Paper>
      <Stack gap="xs" component="section" aria-labelledby="cohorts-heading">
        <Group justify="space-between">
          <Title order={2} size="h3" id="cohorts-heading">
            All cohorts
          </Title>
          <Switch
            label="Show archived"
            checked={archived}
            onChange={(event) => setArchived(event.currentTarget.checked)}
          />
        </Group>
        {cohorts.isPending ? (
          <Skeleton height={120} />
        ) : cohorts.isError ? (
          <LoadError title="Cohorts could not be loaded" error={cohorts.error} onRetry={() => void cohorts.refetch()} />
        ) : cohorts.data.items.length === 0 ? (
          <Text c="dimmed">No cohorts yet: create the first one above.</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table aria-labelledby="cohorts-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Members</Table.Th>
                  <Table.Th>Assignments</Table.Th>
                  <Table.Th>State</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {cohorts.data.items.map((cohort) => (
                  <Table.Tr key={cohort.id}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.cohort(cohort.id)}>
                        {cohort.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td className="tabular-nums">{cohort.memberCount}</Table.Td>
                    <Table.Td className="tabular-nums">{cohort.assignmentCount}</Table.Td>
                    <Table.Td>{cohort.archived ? <Badge color="gray">Archived</Badge> : 'Active'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}
