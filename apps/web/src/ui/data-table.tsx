import { PAGE_SIZE, PAGE_SIZE_CHOICES, pageCount } from '@tradecraft/shared';
import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertCircle, IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type Header,
  type PaginationState,
  type RowData,
  type SortingState,
  type Table as TanTable,
  type Updater,
} from '@tanstack/react-table';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import classes from './data-table.module.css';
import { Pager } from './pager';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Numbers people compare are right-aligned with tabular figures. */
    align?: 'left' | 'right';
    /** Let long text wrap instead of cutting it with an ellipsis. */
    wrap?: boolean;
    /** A column of buttons: never clipped, and kept in view at the right edge while the table scrolls sideways. */
    actions?: boolean;
  }
}

/** No column narrower than 50 px when resizing, so a header stays readable. */
export const MIN_COLUMN_WIDTH = 50;
const KEYBOARD_RESIZE_STEP = 10;

export interface ServerPaging {
  /** 1-based. */
  page: number;
  /** Rows matching the query on the server. */
  total: number;
  /** The server stopped counting at `total`: there are more ("of 1,000+"). */
  totalIsLowerBound?: boolean | undefined;
  onPageChange(page: number): void;
  /** Given: the table offers "Rows per page" (PAGE_SIZE_CHOICES). */
  onPageSizeChange?(size: number): void;
}

export interface DataTableProps<T> {
  /** The table's accessible name (a visually hidden caption). */
  label: string;
  // Column value types differ per column; TanStack's own examples type the array this way.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  /** Undefined until the first load finishes. */
  data: T[] | undefined;
  getRowId(row: T): string;
  /** Shown when there are no rows: say what to do next. */
  emptyMessage: ReactNode;
  isLoading?: boolean;
  /** A new page or sort is on its way while the old rows are still shown. */
  isFetching?: boolean;
  error?: Error | null;
  onRetry?(): void;
  loadingText?: string;
  /** What the rows are, for "Showing 1–10 of 42 users". */
  itemName?: string;
  pageSize?: number;
  /** Client mode: the first sort. */
  initialSorting?: SortingState;
  /** Server mode: sorting state lifted to the caller, who sends it in the query. */
  sorting?: SortingState;
  onSortingChange?(sorting: SortingState): void;
  /** Server mode: the page lives on the server. */
  paging?: ServerPaging;
}

function SortIcon({ direction }: { direction: false | 'asc' | 'desc' }) {
  if (direction === 'asc') return <IconArrowUp size={14} aria-hidden />;
  if (direction === 'desc') return <IconArrowDown size={14} aria-hidden />;
  return <IconArrowsSort size={14} aria-hidden className={classes.idleIcon} />;
}

function headerText<T>(header: Header<T, unknown>): string {
  const text = header.column.columnDef.header;
  return typeof text === 'string' ? text : header.column.id;
}

function HeaderCell<T>({ header, table }: { header: Header<T, unknown>; table: TanTable<T> }) {
  const { column } = header;
  const sorted = column.getIsSorted();
  const meta = column.columnDef.meta;
  const name = headerText(header);
  const content = header.isPlaceholder ? null : flexRender(column.columnDef.header, header.getContext());

  const resizeByKeyboard = (event: KeyboardEvent<HTMLDivElement>) => {
    const step =
      event.key === 'ArrowRight' ? KEYBOARD_RESIZE_STEP : event.key === 'ArrowLeft' ? -KEYBOARD_RESIZE_STEP : 0;
    if (step === 0) return;
    event.preventDefault();
    const width = Math.max(MIN_COLUMN_WIDTH, column.getSize() + step);
    table.setColumnSizing((current) => ({ ...current, [column.id]: width }));
  };

  return (
    <Table.Th
      className={`${classes.th} ${meta?.align === 'right' ? classes.right : ''} ${meta?.actions ? classes.actions : ''}`}
      style={{ width: header.getSize() }}
      aria-sort={
        column.getCanSort() ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined
      }
    >
      {column.getCanSort() ? (
        <UnstyledButton className={classes.sortButton} onClick={column.getToggleSortingHandler()}>
          <span className={classes.label}>{content}</span>
          <SortIcon direction={sorted} />
        </UnstyledButton>
      ) : (
        content
      )}
      {column.getCanResize() && (
        <div
          role="separator"
          aria-orientation="vertical"
          aria-label={`Resize ${name} column`}
          aria-valuenow={header.getSize()}
          aria-valuemin={MIN_COLUMN_WIDTH}
          tabIndex={0}
          className={`${classes.resizer} ${column.getIsResizing() ? classes.resizing : ''}`}
          onMouseDown={header.getResizeHandler()}
          onTouchStart={header.getResizeHandler()}
          onDoubleClick={() => column.resetSize()}
          onKeyDown={resizeByKeyboard}
        />
      )}
    </Table.Th>
  );
}

/** Whether the table is wider than its box: then it says so and takes focus, so a keyboard can scroll it. */
function useOverflowing() {
  const scroller = useRef<HTMLDivElement>(null);
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => setOverflowing(box.scrollWidth > box.clientWidth + 1);
    measure();
    // The box (the window narrows) and the table in it (a column resized) both change what fits.
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { scroller, overflowing };
}

/**
 * The one table of every admin list: click a header to sort ascending, again for descending; drag a
 * header's edge (or focus it and press the arrow keys) to resize; 10 rows a page with the windowed pager;
 * loading, empty and error states. In server mode (logs) sorting and paging are the caller's state and
 * the rows given are already the page; in client mode the table sorts and pages the rows itself.
 */
export function DataTable<T>({
  label,
  columns,
  data,
  getRowId,
  emptyMessage,
  isLoading = false,
  isFetching = false,
  error = null,
  onRetry,
  loadingText = 'Loading...',
  itemName = 'rows',
  pageSize = PAGE_SIZE,
  initialSorting = [],
  sorting: serverSorting,
  onSortingChange,
  paging,
}: DataTableProps<T>) {
  const serverMode = paging !== undefined;
  const [clientSorting, setClientSorting] = useState<SortingState>(initialSorting);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize });
  const sorting = serverSorting ?? clientSorting;

  const changeSorting = (updater: Updater<SortingState>) => {
    const next = typeof updater === 'function' ? updater(sorting) : updater;
    if (onSortingChange) onSortingChange(next);
    else setClientSorting(next);
  };

  const table = useReactTable({
    data: data ?? [],
    columns,
    getRowId,
    defaultColumn: { minSize: MIN_COLUMN_WIDTH, size: 150 },
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    sortDescFirst: false,
    state: { sorting, ...(serverMode ? {} : { pagination }) },
    onSortingChange: changeSorting,
    onPaginationChange: setPagination,
    getCoreRowModel: getCoreRowModel(),
    ...(serverMode
      ? { manualSorting: true, manualPagination: true, pageCount: pageCount(paging.total, pageSize) }
      : { getSortedRowModel: getSortedRowModel(), getPaginationRowModel: getPaginationRowModel() }),
  });

  const total = serverMode ? paging.total : (data?.length ?? 0);
  const page = serverMode ? paging.page : pagination.pageIndex + 1;
  const pages = pageCount(total, pageSize);
  const goTo = (next: number) => {
    if (serverMode) paging.onPageChange(next);
    else setPagination((current) => ({ ...current, pageIndex: next - 1 }));
  };
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  const showRows = data !== undefined && !(error && data.length === 0);
  const { scroller, overflowing } = useOverflowing();
  const hintId = `${label.replace(/\W+/g, '-').toLowerCase()}-scroll-hint`;

  return (
    <Stack gap="sm">
      {error && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="Could not load the list">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{error.message}</Text>
            {onRetry && (
              <Button size="compact-sm" variant="default" onClick={onRetry}>
                Retry
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {overflowing && (
        <Text size="xs" c="dimmed" id={`${hintId}`}>
          Scroll the table sideways for more columns (Shift and the mouse wheel, or the arrow keys once it has focus).
        </Text>
      )}
      <div
        ref={scroller}
        className={classes.scroller}
        data-overflowing={overflowing || undefined}
        {...(overflowing ? { tabIndex: 0, role: 'region', 'aria-label': label, 'aria-describedby': hintId } : {})}
      >
        <Table
          className={`${classes.table} ${isFetching && !isLoading ? classes.stale : ''}`}
          style={{ width: table.getTotalSize() }}
          verticalSpacing="xs"
          striped
          highlightOnHover
          aria-busy={isLoading || isFetching}
        >
          <caption>
            <VisuallyHidden>{label}</VisuallyHidden>
          </caption>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <HeaderCell key={header.id} header={header} table={table} />
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {isLoading && data === undefined ? (
              <>
                <Table.Tr>
                  <Table.Td colSpan={columnCount}>
                    <Text size="sm" role="status" className={classes.stateMessage}>
                      {loadingText}
                    </Text>
                  </Table.Td>
                </Table.Tr>
                {Array.from({ length: Math.min(pageSize, 5) }, (_, index) => (
                  <Table.Tr key={index} aria-hidden>
                    {table.getVisibleLeafColumns().map((column) => (
                      <Table.Td key={column.id}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </>
            ) : showRows && rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columnCount} className={classes.wrap}>
                  <Text size="sm" py="md" ta="center" className={classes.stateMessage}>
                    {emptyMessage}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row) => (
                <Table.Tr key={row.id}>
                  {row.getVisibleCells().map((cell) => {
                    const meta = cell.column.columnDef.meta;
                    return (
                      <Table.Td
                        key={cell.id}
                        className={`${meta?.wrap || meta?.actions ? classes.wrap : classes.td} ${meta?.align === 'right' ? classes.right : ''} ${meta?.actions ? classes.actions : ''}`}
                      >
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </div>
      {total > 0 && (
        <Group justify="space-between" gap="sm">
          <Group gap="md">
            <Text size="sm" c="dimmed" className="tabular-nums" aria-live="polite">
              Showing {first.toLocaleString()}–{last.toLocaleString()} of {total.toLocaleString()}
              {serverMode && paging.totalIsLowerBound ? '+' : ''} {itemName}
            </Text>
            {serverMode && paging.onPageSizeChange && (
              <NativeSelect
                size="xs"
                label="Rows per page"
                classNames={{ root: classes.rowsPerPage }}
                data={PAGE_SIZE_CHOICES.map(String)}
                value={String(pageSize)}
                onChange={(event) => paging.onPageSizeChange?.(Number(event.currentTarget.value))}
              />
            )}
          </Group>
          <Pager page={page} pageCount={pages} onChange={goTo} label={`${label} pages`} />
        </Group>
      )}
    </Stack>
  );
}
