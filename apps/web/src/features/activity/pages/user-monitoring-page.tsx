import {
  LOGIN_EVENTS,
  loginEventLabel,
  PAGE_SIZE,
  type LoginActivitySortColumn,
  type LoginEvent,
  type LoginEventKind,
} from '@tradecraft/shared';
import { Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconLogin, IconLogout, IconSearch, IconShieldX, IconTimeline } from '@tabler/icons-react';
import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { useState } from 'react';
import { DataTable } from '../../../ui/data-table';
import { StatCard } from '../../../ui/stat-card';
import { LOGIN_ACTIVITY_FILENAMES, loginActivityExportUrl, useLoginActivity } from '../api/get-login-activity';
import { useLoginActivityStats } from '../api/get-login-activity-stats';

const EVENT_COLORS: Record<string, string> = { login: 'green', logout: 'gray', failed_login: 'red', password_change: 'blue' };

const column = createColumnHelper<LoginEvent>();

// SPEC.md section 9: email 150, role 120, event 150, timestamp 200.
const columns = [
  column.accessor('email', { id: 'email', header: 'Email', size: 150 }),
  column.accessor('role', { id: 'role', header: 'Role', size: 120 }),
  column.accessor('event', {
    id: 'event',
    header: 'Event',
    size: 150,
    cell: (info) => (
      <Badge variant="light" color={EVENT_COLORS[info.getValue()] ?? 'gray'} radius="sm">
        {loginEventLabel(info.getValue())}
      </Badge>
    ),
  }),
  column.accessor('timestamp', {
    id: 'timestamp',
    header: 'Timestamp',
    size: 200,
    cell: (info) => <time dateTime={info.getValue()}>{new Date(info.getValue()).toLocaleString()}</time>,
  }),
];

const EVENT_OPTIONS = [{ value: '', label: 'All events' }, ...LOGIN_EVENTS.map((event) => ({ value: event, label: loginEventLabel(event) }))];

export default function UserMonitoringPage() {
  const [search, setSearch] = useState('');
  const [event, setEvent] = useState<LoginEventKind | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'timestamp', desc: true }]);
  const [page, setPage] = useState(1);
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);

  const stats = useLoginActivityStats();
  const filters = {
    search: debouncedSearch || undefined,
    event: event || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const activity = useLoginActivity({
    ...filters,
    sort: (sorting[0]?.id ?? 'timestamp') as LoginActivitySortColumn,
    dir: sorting[0]?.desc ? 'desc' : 'asc',
    page,
    pageSize: PAGE_SIZE,
  });
  const filtered = Boolean(filters.search || filters.event || filters.from || filters.to);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>User Monitoring</Title>
        <Text c="dimmed">Sign-ins, sign-outs and failed attempts across the platform. Search by email and export what you find.</Text>
      </div>

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard label="Total events" value={stats.data?.total} icon={IconTimeline} />
        <StatCard label="Failed logins" value={stats.data?.failedLogins} icon={IconShieldX} color="red" />
        <StatCard label="Logins today" value={stats.data?.loginsToday} icon={IconLogin} color="green" />
        <StatCard label="Logouts today" value={stats.data?.logoutsToday} icon={IconLogout} color="gray" />
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
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            <TextInput
              label="Search by email"
              placeholder="Part of an email"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(changed) => {
                setSearch(changed.currentTarget.value);
                setPage(1);
              }}
            />
            <Select
              label="Event"
              data={EVENT_OPTIONS}
              value={event}
              allowDeselect={false}
              onChange={(value) => {
                setEvent((value ?? '') as LoginEventKind | '');
                setPage(1);
              }}
            />
            <TextInput
              type="date"
              label="From"
              value={from}
              max={to || undefined}
              onChange={(changed) => {
                setFrom(changed.currentTarget.value);
                setPage(1);
              }}
            />
            <TextInput
              type="date"
              label="To"
              value={to}
              min={from || undefined}
              onChange={(changed) => {
                setTo(changed.currentTarget.value);
                setPage(1);
              }}
            />
          </SimpleGrid>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {filtered ? 'The export holds every event matching these filters.' : 'The export holds every event, newest first.'}
            </Text>
            <Group gap="sm">
              {(['csv', 'xlsx'] as const).map((format) => (
                <Button
                  key={format}
                  component="a"
                  href={loginActivityExportUrl(filters, format)}
                  download={LOGIN_ACTIVITY_FILENAMES[format]}
                  variant="default"
                  leftSection={<IconDownload size={16} aria-hidden />}
                >
                  Export {format.toUpperCase()}
                </Button>
              ))}
            </Group>
          </Group>
        </Stack>
      </Paper>

      <DataTable
        label="Sign-in activity"
        columns={columns}
        data={activity.data?.items}
        getRowId={(row) => String(row.id)}
        isLoading={activity.isPending}
        isFetching={activity.isPlaceholderData}
        error={activity.error}
        onRetry={() => void activity.refetch()}
        emptyMessage={
          filtered
            ? 'No sign-in events match these filters. Clear the search or widen the dates.'
            : 'No sign-in events yet. They appear here as people sign in and out.'
        }
        itemName="events"
        sorting={sorting}
        onSortingChange={(next) => {
          setSorting(next);
          setPage(1);
        }}
        paging={{ page, total: activity.data?.total ?? 0, onPageChange: setPage }}
      />
    </Stack>
  );
}
