import { Stack, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '../../../ui/data-table';
import { useServerTable, type ServerPageResult } from '../../../ui/use-server-table';
import { NameFilters } from './name-filters';

/** The state of a cohorts' or learning paths' list: searched by name, archived shown on request, sorted by name. */
export function useNameListTable(tableId: string) {
  return useServerTable({
    tableId,
    filters: { search: '', archived: '' as '' | 'true' },
    textFilters: ['search'],
    sortColumns: ['name'],
    defaultSort: { id: 'name', desc: false },
  });
}

/** A titled list of cohorts or learning paths with its name filters, a page at a time from the server. */
export function NameListSection<T extends { id: string }>({
  headingId,
  title,
  label,
  placeholder,
  emptyMessage,
  searchedEmptyMessage,
  itemName,
  table,
  columns,
  result,
}: {
  headingId: string;
  title: string;
  label: string;
  placeholder: string;
  emptyMessage: string;
  searchedEmptyMessage: string;
  itemName: string;
  table: ReturnType<typeof useNameListTable>;
  // Column value types differ per column (as in DataTableProps).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  result: ServerPageResult<T>;
}) {
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h3" id={headingId}>
        {title}
      </Title>
      <NameFilters filters={table.filters} onChange={table.setFilter} placeholder={placeholder} />
      <DataTable
        label={label}
        columns={columns}
        getRowId={(row) => row.id}
        emptyMessage={table.filterQuery.search ? searchedEmptyMessage : emptyMessage}
        itemName={itemName}
        {...table.tableProps(result)}
      />
    </Stack>
  );
}
