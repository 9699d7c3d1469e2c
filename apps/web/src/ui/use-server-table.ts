import { PAGE_SIZE, PAGE_SIZE_CHOICES, type SortDirection } from '@tradecraft/shared';
import { useDebouncedValue } from '@mantine/hooks';
import type { SortingState } from '@tanstack/react-table';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { DataTableProps } from './data-table';

const TYPING_PAUSE_MS = 300;

export interface ServerTableOptions<F extends Record<string, string>, S extends string> {
  /** Names the table for what this browser remembers of it (its rows per page). */
  tableId: string;
  /** Every filter with its empty value (''), under its name in the API query and in the address bar. */
  filters: F;
  /** The filters typed into a text box: the query waits until typing pauses and trims them. */
  textFilters?: readonly (keyof F & string)[];
  /** The columns the server can sort by (the table's column ids). */
  sortColumns: readonly S[];
  defaultSort: { id: S; desc: boolean };
}

interface TableState<F, S> {
  filters: F;
  sort: { id: S; desc: boolean };
  page: number;
}

/** What a table query hook returns that the table draws (TanStack Query's result fits). */
export interface ServerPageResult<T> {
  data?: { items: T[]; total: number; totalIsLowerBound?: boolean | undefined } | undefined;
  isPending: boolean;
  isPlaceholderData: boolean;
  error: Error | null;
  refetch(): unknown;
}

const rowsKey = (tableId: string) => `tableRows:${tableId}`;

/** The rows per page this browser last chose for the table (localStorage), or the default. */
export function readRowsPerPage(tableId: string): number {
  try {
    const stored = Number(window.localStorage.getItem(rowsKey(tableId)));
    return (PAGE_SIZE_CHOICES as readonly number[]).includes(stored) ? stored : PAGE_SIZE;
  } catch {
    return PAGE_SIZE;
  }
}

function rememberRowsPerPage(tableId: string, size: number): void {
  try {
    window.localStorage.setItem(rowsKey(tableId), String(size));
  } catch {
    /* storage blocked: the choice lasts until the page is left */
  }
}

function readState<F extends Record<string, string>, S extends string>(
  params: URLSearchParams,
  options: ServerTableOptions<F, S>,
): TableState<F, S> {
  const filters = { ...options.filters };
  for (const key of Object.keys(filters) as (keyof F & string)[]) {
    const value = params.get(key);
    if (value !== null) filters[key] = value as F[typeof key];
  }
  const sortId = params.get('sort');
  const dir = params.get('dir');
  const id = options.sortColumns.find((column) => column === sortId) ?? options.defaultSort.id;
  const desc =
    dir === 'asc' || dir === 'desc' ? dir === 'desc' : id === options.defaultSort.id ? options.defaultSort.desc : false;
  const page = Number(params.get('page'));
  return { filters, sort: { id, desc }, page: Number.isInteger(page) && page >= 1 ? page : 1 };
}

function writeState<F extends Record<string, string>, S extends string>(
  current: URLSearchParams,
  state: TableState<F, S>,
  options: ServerTableOptions<F, S>,
): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string | null) => (value === null ? next.delete(key) : next.set(key, value));
  for (const [key, value] of Object.entries(state.filters)) set(key, value === '' ? null : value);
  const isDefaultSort = state.sort.id === options.defaultSort.id && state.sort.desc === options.defaultSort.desc;
  set('sort', isDefaultSort ? null : state.sort.id);
  set('dir', isDefaultSort ? null : state.sort.desc ? 'desc' : 'asc');
  set('page', state.page === 1 ? null : String(state.page));
  return next;
}

/**
 * The state of an admin table whose filtering, sorting and paging happen on the server: the filter inputs'
 * values, the query to send (text filters trimmed and debounced, empty ones left out), and the table's
 * sorting and paging. It lives in the address bar too, so a reload or a shared link shows the same page.
 * Any filter or sort change goes back to page 1.
 */
export function useServerTable<F extends Record<string, string>, S extends string>(options: ServerTableOptions<F, S>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [state, setState] = useState(() => readState(searchParams, options));
  const [pageSize, setPageSizeState] = useState(() => readRowsPerPage(options.tableId));

  useEffect(() => {
    const next = writeState(searchParams, state, options);
    if (next.toString() !== searchParams.toString()) setSearchParams(next, { replace: true });
    // options is a literal rebuilt every render; its values never change for a screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, searchParams, setSearchParams]);

  const textKeys = options.textFilters ?? [];
  // Debounced as one string: a fresh object each render would restart the timer for ever.
  const typedText = JSON.stringify(Object.fromEntries(textKeys.map((key) => [key, (state.filters[key] ?? '').trim()])));
  const [debouncedText] = useDebouncedValue(typedText, TYPING_PAUSE_MS);
  // Between a keystroke and the answer the rows shown are the old search's: the table says it is busy.
  const typing = typedText !== debouncedText;
  const sent: Record<string, string> = { ...state.filters, ...(JSON.parse(debouncedText) as Record<string, string>) };
  const filterQuery = Object.fromEntries(Object.entries(sent).map(([key, value]) => [key, value || undefined])) as {
    [K in keyof F]?: Exclude<F[K], ''>;
  };
  const dir: SortDirection = state.sort.desc ? 'desc' : 'asc';
  const query = { ...filterQuery, sort: state.sort.id, dir, page: state.page, pageSize };

  const setFilter = <K extends keyof F>(key: K, value: F[K]) =>
    setState((current) => ({ ...current, filters: { ...current.filters, [key]: value }, page: 1 }));
  const setPage = (page: number) => setState((current) => ({ ...current, page }));
  /** Keeps the first row on screen: a new size opens the page that holds it. */
  const setPageSize = (size: number) => {
    const firstRow = (state.page - 1) * pageSize;
    setPageSizeState(size);
    rememberRowsPerPage(options.tableId, size);
    setState((current) => ({ ...current, page: Math.floor(firstRow / size) + 1 }));
  };
  const sorting: SortingState = [state.sort];
  const onSortingChange = (next: SortingState) => {
    const first = next[0];
    const id = options.sortColumns.find((column) => column === first?.id) ?? options.defaultSort.id;
    setState((current) => ({ ...current, sort: { id, desc: first ? first.desc : options.defaultSort.desc }, page: 1 }));
  };

  /** The DataTable props that come from the query's result and this state. */
  function tableProps<T>(
    result: ServerPageResult<T>,
  ): Pick<
    DataTableProps<T>,
    'data' | 'isLoading' | 'isFetching' | 'error' | 'onRetry' | 'sorting' | 'onSortingChange' | 'paging' | 'pageSize'
  > {
    return {
      data: result.data?.items,
      isLoading: result.isPending,
      isFetching: result.isPlaceholderData || typing,
      error: result.error,
      onRetry: () => void result.refetch(),
      sorting,
      onSortingChange,
      pageSize,
      paging: {
        page: state.page,
        total: result.data?.total ?? 0,
        totalIsLowerBound: result.data?.totalIsLowerBound,
        onPageChange: setPage,
        onPageSizeChange: setPageSize,
      },
    };
  }

  return {
    /** The inputs' values, as typed. */
    filters: state.filters,
    setFilter,
    /** The filters as sent: trimmed, debounced, empty ones undefined. */
    filterQuery,
    /** True when any filter narrows the list (as sent), so the empty message can say so. */
    isFiltered: Object.values(filterQuery).some((value) => value !== undefined),
    query,
    setPageSize,
    tableProps,
  };
}
