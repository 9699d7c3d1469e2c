import { USER_SORT_COLUMNS, type ManagedUser } from '@tradecraft/shared';
import { Badge, Button, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPencil, IconSearch, IconUserCheck, IconUserOff, IconUsers, IconUserShield } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { paths } from '../../../lib/paths';
import { DataTable } from '../../../ui/data-table';
import { InlineLoadError } from '../../../ui/load-error';
import { StatCard } from '../../../ui/stat-card';
import { useServerTable } from '../../../ui/use-server-table';
import { useSession } from '../../../lib/session';
import { useUserStats } from '../api/get-user-stats';
import { useUsers } from '../api/get-users';
import { EditUserDialog } from '../components/edit-user-dialog';

const column = createColumnHelper<ManagedUser>();

const ROLE_OPTIONS = [
  { value: '', label: 'All roles' },
  { value: 'student', label: 'Student' },
  { value: 'admin', label: 'Admin' },
];
const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
];

export default function ManageUsersPage() {
  const { user: me } = useSession();
  const [editing, setEditing] = useState<ManagedUser | null>(null);
  const table = useServerTable({
    tableId: 'users',
    filters: { search: '', role: '' as '' | 'student' | 'admin', status: '' as '' | 'active' | 'disabled' },
    textFilters: ['search'],
    sortColumns: USER_SORT_COLUMNS,
    defaultSort: { id: 'name', desc: false },
  });
  const { filters, setFilter } = table;
  const stats = useUserStats();
  const users = useUsers(table.query);
  const filtered = table.isFiltered;

  // Column widths: name 200, email 220, role 120, designation 150, status 150.
  const columns = useMemo(
    () => [
      column.accessor((user) => `${user.firstName} ${user.lastName}`, { id: 'name', header: 'Name', size: 200 }),
      column.accessor('email', { id: 'email', header: 'Email', size: 220 }),
      column.accessor('role', {
        id: 'role',
        header: 'Role',
        size: 120,
        cell: (info) => (
          <Badge variant="light" color={info.getValue() === 'admin' ? 'grape' : 'blue'} radius="sm">
            {info.getValue() === 'admin' ? 'Admin' : 'Student'}
          </Badge>
        ),
      }),
      column.accessor('designation', {
        id: 'designation',
        header: 'Designation',
        size: 150,
        cell: (info) => info.getValue() || '-',
      }),
      column.accessor('disabled', {
        id: 'status',
        header: 'Status',
        size: 150,
        cell: (info) =>
          info.row.original.lockedUntil ? (
            // Three wrong passwords: the lock lifts by itself at this time, or at once when an admin enables the account.
            <Badge variant="light" color="orange" radius="sm">
              Locked
            </Badge>
          ) : info.getValue() ? (
            <Badge variant="light" color="red" radius="sm">
              Disabled
            </Badge>
          ) : (
            <Badge variant="light" color="green" radius="sm">
              Active
            </Badge>
          ),
      }),
      column.display({
        id: 'actions',
        header: 'Actions',
        size: 100,
        enableSorting: false,
        meta: { actions: true },
        cell: (info) => (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconPencil size={14} aria-hidden />}
            onClick={() => setEditing(info.row.original)}
            aria-label={`Edit ${info.row.original.email}`}
          >
            Edit
          </Button>
        ),
      }),
    ],
    [],
  );

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Manage Users</Title>
        <Text c="dimmed">
          Everyone with an approved account: find a user, change their role or details, or disable the account.
        </Text>
      </div>

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard label="Users" hint="Approved accounts" value={stats.data?.total} icon={IconUsers} />
        <StatCard label="Active" value={stats.data?.active} icon={IconUserShield} color="green" />
        <StatCard label="Disabled" value={stats.data?.disabled} icon={IconUserOff} color="red" />
        <StatCard
          label="Pending"
          hint="Awaiting approval"
          value={stats.data?.pending}
          icon={IconUserCheck}
          color="yellow"
          to={paths.pendingUsers}
        />
      </SimpleGrid>
      {stats.isError && <InlineLoadError what="The counts" error={stats.error} onRetry={() => void stats.refetch()} />}

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <TextInput
            label="Search"
            placeholder="Name, email or designation"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={filters.search}
            onChange={(event) => setFilter('search', event.currentTarget.value)}
          />
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            value={filters.role}
            allowDeselect={false}
            onChange={(value) => setFilter('role', (value ?? '') as typeof filters.role)}
          />
          <Select
            label="Status"
            data={STATUS_OPTIONS}
            value={filters.status}
            allowDeselect={false}
            onChange={(value) => setFilter('status', (value ?? '') as typeof filters.status)}
          />
        </SimpleGrid>
      </Paper>

      <DataTable
        label="Users"
        columns={columns}
        getRowId={(user) => user.id}
        emptyMessage={
          filtered
            ? 'No users match this search. Check the spelling or clear the filters.'
            : 'No approved users yet. Approve registrations under Pending Approvals.'
        }
        itemName="users"
        {...table.tableProps(users)}
      />

      <EditUserDialog user={editing} currentUserId={me?.id} onClose={() => setEditing(null)} />
    </Stack>
  );
}
