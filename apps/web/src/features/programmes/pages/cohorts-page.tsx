import type { CohortSummary } from '@tradecraft/shared';
import { Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { useCohorts, useCreateCohort } from '../api/cohorts';
import { NameListSection, useNameListTable } from '../components/name-list';

const column = createColumnHelper<CohortSummary>();
const columns = [
  column.accessor('name', {
    id: 'name',
    header: 'Name',
    size: 260,
    enableSorting: false,
    cell: (info) => (
      <Anchor component={Link} to={paths.cohort(info.row.original.id)}>
        {info.getValue()}
      </Anchor>
    ),
  }),
  column.accessor('memberCount', {
    header: 'Members',
    size: 110,
    enableSorting: false,
    meta: { align: 'right' },
  }),
  column.accessor('assignmentCount', {
    header: 'Assignments',
    size: 130,
    enableSorting: false,
    meta: { align: 'right' },
  }),
  column.accessor('archived', {
    header: 'State',
    size: 120,
    enableSorting: false,
    cell: (info) => (info.getValue() ? <Badge color="gray">Archived</Badge> : 'Active'),
  }),
];

export default function CohortsPage() {
  const table = useNameListTable('cohorts');
  const cohorts = useCohorts(table.query);
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
      <NameListSection
        headingId="cohorts-heading"
        title="All cohorts"
        label="Cohorts"
        placeholder="Part of a cohort's name"
        emptyMessage="No cohorts yet: create the first one above."
        searchedEmptyMessage="No cohort has that in its name. Check the spelling or clear the search."
        itemName="cohorts"
        table={table}
        columns={columns}
        result={cohorts}
      />
    </Stack>
  );
}
