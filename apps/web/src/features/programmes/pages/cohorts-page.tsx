import type { CohortSummary } from '@tradecraft/shared';
import { Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { DataTable } from '../../../ui/data-table';
import { useServerTable } from '../../../ui/use-server-table';
import { useCohorts, useCreateCohort } from '../api/cohorts';
import { NameFilters } from '../components/name-filters';

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
  const table = useServerTable({
    tableId: 'cohorts',
    filters: { search: '', archived: '' as '' | 'true' },
    textFilters: ['search'],
    sortColumns: ['name'],
    defaultSort: { id: 'name', desc: false },
  });
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
      <Stack gap="xs" component="section" aria-labelledby="cohorts-heading">
        <Title order={2} size="h3" id="cohorts-heading">
          All cohorts
        </Title>
        <NameFilters filters={table.filters} onChange={table.setFilter} placeholder="Part of a cohort's name" />
        <DataTable
          label="Cohorts"
          columns={columns}
          getRowId={(cohort) => cohort.id}
          emptyMessage={
            table.filterQuery.search
              ? 'No cohort has that in its name. Check the spelling or clear the search.'
              : 'No cohorts yet: create the first one above.'
          }
          itemName="cohorts"
          {...table.tableProps(cohorts)}
        />
      </Stack>
    </Stack>
  );
}
