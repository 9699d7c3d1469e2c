import { PAGE_SIZE, type ManagedUser, type UserSortColumn, type UsersListQuery } from '@tradecraft/shared';
import { Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconSearch, IconUserCheck, IconUserOff, IconUsers, IconUserShield } from '@tabler/icons-react';
import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { paths } from '../../../lib/paths';
import { DataTable } from '../../../ui/data-table';
import { StatCard } from '../../../ui/stat-card';
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
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<'' | 'student' | 'admin'>('');
  const [status, setStatus] = useState<'' | 'active' | 'disabled'>('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'name', desc: false }]);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ManagedUser | null>(null);
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);

  const stats = useUserStats();
  const query: UsersListQuery = {
    search: debouncedSearch || undefined,
    role: role || undefined,
    status: status || undefined,
    sort: (sorting[0]?.id ?? 'name') as UserSortColumn,
    dir: sorting[0]?.desc ? 'desc' : 'asc',
    page,
    pageSize: PAGE_SIZE,
  };
  const users = useUsers(query);
  const filtered = Boolean(query.search || query.role || query.status);

  // SPEC.md section 9: name 200, email 220, role 120, designation 150, status 150.
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
      column.accessor('designation', { id: 'designation', header: 'Designation', size: 150, cell: (info) => info.getValue() || '-' }),
      column.accessor('disabled', {
        id: 'status',
        header: 'Status',
        size: 150,
        cell: (info) =>
          info.getValue() ? (
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
        <Text c="dimmed">Everyone with an approved account: find a user, change their role or details, or disable the account.</Text>
      </div>

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard label="Users" hint="Approved accounts" value={stats.data?.total} icon={IconUsers} />
        <StatCard label="Active" value={stats.data?.active} icon={IconUserShield} color="green" />
        <StatCard label="Disabled" value={stats.data?.disabled} icon={IconUserOff} color="red" />
        <StatCard label="Pending" hint="Awaiting approval" value={stats.data?.pending} icon={IconUserCheck} color="yellow" to={paths.pendingUsers} />
      </SimpleGrid>
      {stats.isError && (
        <Group gap="xs">
          <Text size="sm" c="red" role="alert">
            The counts could not be loaded: {stats.error.message}
          </Text>
          <Button size="compact-sm" variant="default" onClick={() => void stats.refetch()}>
            Retry
          </Button>
        </Group>
      )}

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <TextInput
            label="Search"
            placeholder="Name, email or designation"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
          />
          <Select
            label="Role"
            data={ROLE_OPTIONS}
            value={role}
            allowDeselect={false}
            onChange={(value) => {
              setRole((value ?? '') as typeof role);
              setPage(1);
            }}
          />
          <Select
            label="Status"
            data={STATUS_OPTIONS}
            value={status}
            allowDeselect={false}
            onChange={(value) => {
              setStatus((value ?? '') as typeof status);
              setPage(1);
            }}
          />
        </SimpleGrid>
      </Paper>

      <DataTable
        label="Users"
        columns={columns}
        data={users.data?.items}
        getRowId={(user) => user.id}
        isLoading={users.isPending}
        isFetching={users.isPlaceholderData}
        error={users.error}
        onRetry={() => void users.refetch()}
        emptyMessage={
          filtered
            ? 'No users match this search. Check the spelling or clear the filters.'
            : 'No approved users yet. Approve registrations under Pending Approvals.'
        }
        itemName="users"
        sorting={sorting}
        onSortingChange={(next) => {
          setSorting(next);
          setPage(1);
        }}
        paging={{ page, total: users.data?.total ?? 0, onPageChange: setPage }}
      />

      <EditUserDialog user={editing} currentUserId={me?.id} onClose={() => setEditing(null)} />
    </Stack>
  );
}
