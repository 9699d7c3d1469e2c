import {
  LOGIN_ACTIVITY_SORT_COLUMNS,
  LOGIN_EVENTS,
  loginEventLabel,
  type LoginEvent,
  type LoginEventKind,
} from '@tradecraft/shared';
import { Badge, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconLogin, IconLogout, IconSearch, IconShieldX, IconTimeline } from '@tabler/icons-react';
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../../../ui/data-table';
import { DownloadButton } from '../../../ui/download-button';
import { InlineLoadError } from '../../../ui/load-error';
import { StatCard } from '../../../ui/stat-card';
import { useServerTable } from '../../../ui/use-server-table';
import { LOGIN_ACTIVITY_FILENAMES, loginActivityExportUrl, useLoginActivity } from '../api/get-login-activity';
import { useLoginActivityStats } from '../api/get-login-activity-stats';
import { SprayingPanel } from '../components/spraying-panel';
import { formatDateTime } from '../../../lib/dates';

const EVENT_COLORS: Record<string, string> = {
  login: 'green',
  logout: 'gray',
  failed_login: 'red',
  password_change: 'blue',
};

const column = createColumnHelper<LoginEvent>();

// Column widths: email 150, role 120, event 150, timestamp 200.
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
    cell: (info) => <time dateTime={info.getValue()}>{formatDateTime(info.getValue())}</time>,
  }),
];

const EVENT_OPTIONS = [
  { value: '', label: 'All events' },
  ...LOGIN_EVENTS.map((event) => ({ value: event, label: loginEventLabel(event) })),
];

export default function UserMonitoringPage() {
  const table = useServerTable({
    tableId: 'sign-ins',
    filters: { search: '', event: '' as LoginEventKind | '', from: '', to: '' },
    textFilters: ['search'],
    sortColumns: LOGIN_ACTIVITY_SORT_COLUMNS,
    defaultSort: { id: 'timestamp', desc: true },
  });
  const { filters, setFilter, filterQuery } = table;
  const stats = useLoginActivityStats();
  const activity = useLoginActivity(table.query);
  const filtered = table.isFiltered;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>User Monitoring</Title>
        <Text c="dimmed">
          Sign-ins, sign-outs and failed attempts across the platform. Search by email and export what you find.
        </Text>
      </div>

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard label="Total events" value={stats.data?.total} icon={IconTimeline} />
        <StatCard label="Failed logins" value={stats.data?.failedLogins} icon={IconShieldX} color="red" />
        <StatCard label="Logins today" value={stats.data?.loginsToday} icon={IconLogin} color="green" />
        <StatCard label="Logouts today" value={stats.data?.logoutsToday} icon={IconLogout} color="gray" />
      </SimpleGrid>
      {stats.isError && <InlineLoadError what="The counts" error={stats.error} onRetry={() => void stats.refetch()} />}
      <SprayingPanel />

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            <TextInput
              label="Search by email"
              placeholder="Part of an email"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={filters.search}
              onChange={(changed) => setFilter('search', changed.currentTarget.value)}
            />
            <Select
              label="Event"
              data={EVENT_OPTIONS}
              value={filters.event}
              allowDeselect={false}
              onChange={(value) => setFilter('event', (value ?? '') as LoginEventKind | '')}
            />
            <TextInput
              type="date"
              label="From"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(changed) => setFilter('from', changed.currentTarget.value)}
            />
            <TextInput
              type="date"
              label="To"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(changed) => setFilter('to', changed.currentTarget.value)}
            />
          </SimpleGrid>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {filtered
                ? 'The export holds every event matching these filters.'
                : 'The export holds every event, newest first.'}
            </Text>
            <Group gap="sm">
              {(['csv', 'xlsx'] as const).map((format) => (
                <DownloadButton
                  key={format}
                  href={loginActivityExportUrl(filterQuery, format)}
                  filename={LOGIN_ACTIVITY_FILENAMES[format]}
                  variant="default"
                >
                  Export {format.toUpperCase()}
                </DownloadButton>
              ))}
            </Group>
          </Group>
        </Stack>
      </Paper>

      <DataTable
        label="Sign-in activity"
        columns={columns}
        getRowId={(row) => String(row.id)}
        emptyMessage={
          filtered
            ? 'No sign-in events match these filters. Clear the search or widen the dates.'
            : 'No sign-in events yet. They appear here as people sign in and out.'
        }
        itemName="events"
        {...table.tableProps(activity)}
      />
    </Stack>
  );
}
