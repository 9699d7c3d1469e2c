import { AUDIT_EXPORT_MESSAGES, AUDIT_SORT_COLUMNS, capitaliseAction, type AuditEntry } from '@tradecraft/shared';
import { Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../../../ui/data-table';
import { DownloadButton } from '../../../ui/download-button';
import { useServerTable } from '../../../ui/use-server-table';
import { AUDIT_EXPORT_FILENAME, auditExportUrl, useAuditLogs } from '../api/get-audit-logs';
import { formatDateTime } from '../../../lib/dates';

const column = createColumnHelper<AuditEntry>();
const orDash = (value: string | null) => (value && value.trim() ? value : '-');

// Column widths: actor 150 and timestamp 200 as on the other logs; the others fit their text.
const columns = [
  column.accessor('actor', { id: 'actor', header: 'Actor', size: 150, cell: (info) => orDash(info.getValue()) }),
  column.accessor('action', {
    id: 'action',
    header: 'Action',
    size: 160,
    cell: (info) => capitaliseAction(info.getValue()),
  }),
  column.accessor('details', {
    id: 'details',
    header: 'Details',
    size: 340,
    cell: (info) => orDash(info.getValue()),
    meta: { wrap: true },
  }),
  column.accessor('screen', { id: 'screen', header: 'Screen', size: 160, cell: (info) => orDash(info.getValue()) }),
  column.accessor('timestamp', {
    id: 'timestamp',
    header: 'Timestamp',
    size: 200,
    cell: (info) => <time dateTime={info.getValue()}>{formatDateTime(info.getValue())}</time>,
  }),
];

type TextFilter = 'actor' | 'action' | 'details' | 'screen';
const TEXT_FILTERS: { key: TextFilter; label: string; placeholder: string }[] = [
  { key: 'actor', label: 'Actor', placeholder: 'e.g. admin@' },
  { key: 'action', label: 'Action', placeholder: 'e.g. approve' },
  { key: 'details', label: 'Details', placeholder: 'e.g. student' },
  { key: 'screen', label: 'Screen', placeholder: 'e.g. Manage Users' },
];

export default function AuditLogPage() {
  const table = useServerTable({
    tableId: 'audit',
    filters: { actor: '', action: '', details: '', screen: '', start_date: '', end_date: '' },
    textFilters: ['actor', 'action', 'details', 'screen'],
    sortColumns: AUDIT_SORT_COLUMNS,
    defaultSort: { id: 'timestamp', desc: true },
  });
  const logs = useAuditLogs(table.query);
  const { filters, setFilter } = table;
  const startDate = filters.start_date;
  const endDate = filters.end_date;
  const datesInOrder = !startDate || !endDate || startDate <= endDate;
  const canDownload = Boolean(startDate && endDate) && datesInOrder;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Audit Log</Title>
        <Text c="dimmed">
          Every admin action, who took it and when. Filter, sort, and download a date range as a spreadsheet.
        </Text>
      </div>

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
            {TEXT_FILTERS.map((filter) => (
              <TextInput
                key={filter.key}
                label={filter.label}
                placeholder={filter.placeholder}
                value={filters[filter.key]}
                onChange={(event) => setFilter(filter.key, event.currentTarget.value)}
              />
            ))}
            <TextInput
              type="date"
              label="Start date"
              value={startDate}
              max={endDate || undefined}
              onChange={(event) => setFilter('start_date', event.currentTarget.value)}
            />
            <TextInput
              type="date"
              label="End date"
              value={endDate}
              min={startDate || undefined}
              error={datesInOrder ? undefined : AUDIT_EXPORT_MESSAGES.endBeforeStart}
              onChange={(event) => setFilter('end_date', event.currentTarget.value)}
            />
          </SimpleGrid>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" id="audit-download-hint">
              {canDownload
                ? `Downloads every entry from ${startDate} to ${endDate}, both days included.`
                : 'Choose a start date and an end date to download that range.'}
            </Text>
            <DownloadButton
              href={canDownload ? auditExportUrl(startDate, endDate) : null}
              filename={AUDIT_EXPORT_FILENAME}
              describedBy="audit-download-hint"
            >
              Download
            </DownloadButton>
          </Group>
        </Stack>
      </Paper>

      <DataTable
        label="Audit log"
        columns={columns}
        getRowId={(entry) => String(entry.id)}
        emptyMessage="No audit logs found."
        itemName="entries"
        {...table.tableProps(logs)}
      />
    </Stack>
  );
}
