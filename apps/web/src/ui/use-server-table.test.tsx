import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useServerTable } from './use-server-table';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const SORT_COLUMNS = ['name', 'email'] as const;

function renderTable(initialUrl: string, tableId = 'people') {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[initialUrl]}>{children}</MemoryRouter>
  );
  return renderHook(
    () => {
      const table = useServerTable({
        tableId,
        filters: { search: '', role: '' },
        textFilters: ['search'],
        sortColumns: SORT_COLUMNS,
        defaultSort: { id: 'name', desc: false },
      });
      return { table, search: useLocation().search };
    },
    { wrapper },
  );
}

describe('useServerTable', () => {
  it('starts from the address bar: filters, sort, direction and page', () => {
    const { result } = renderTable('/users?search=ada&role=admin&sort=email&dir=desc&page=3');
    expect(result.current.table.filters).toEqual({ search: 'ada', role: 'admin' });
    expect(result.current.table.query).toEqual({
      search: 'ada',
      role: 'admin',
      sort: 'email',
      dir: 'desc',
      page: 3,
      pageSize: 10,
    });
    expect(result.current.table.isFiltered).toBe(true);
  });

  it('ignores what it cannot use in the address bar', () => {
    const { result } = renderTable('/users?sort=password_hash&page=-2&dir=sideways');
    expect(result.current.table.query).toEqual({
      search: undefined,
      role: undefined,
      sort: 'name',
      dir: 'asc',
      page: 1,
      pageSize: 10,
    });
    expect(result.current.table.isFiltered).toBe(false);
  });

  it('goes back to page 1 when a filter or the sort changes, and writes the state to the address bar', async () => {
    const { result } = renderTable('/users?page=4');
    act(() => result.current.table.setFilter('role', 'student'));
    expect(result.current.table.query).toMatchObject({ role: 'student', page: 1 });
    await waitFor(() => expect(result.current.search).toBe('?role=student'));

    act(() =>
      result.current.table
        .tableProps({ isPending: false, isPlaceholderData: false, error: null, refetch: () => undefined })
        .paging?.onPageChange(2),
    );
    await waitFor(() => expect(result.current.search).toBe('?role=student&page=2'));

    act(() =>
      result.current.table
        .tableProps({ isPending: false, isPlaceholderData: false, error: null, refetch: () => undefined })
        .onSortingChange?.([{ id: 'email', desc: true }]),
    );
    expect(result.current.table.query).toMatchObject({ sort: 'email', dir: 'desc', page: 1 });
    await waitFor(() => expect(result.current.search).toBe('?role=student&sort=email&dir=desc'));
  });

  it('sends a typed search trimmed, once typing pauses', async () => {
    const { result } = renderTable('/users');
    act(() => result.current.table.setFilter('search', '  ada '));
    expect(result.current.table.filters.search).toBe('  ada ');
    expect(result.current.table.query.search).toBeUndefined();
    await waitFor(() => expect(result.current.table.query.search).toBe('ada'));
  });

  it('shows the table busy from the keystroke until the search is sent', async () => {
    const { result } = renderTable('/users');
    const settled = { isPending: false, isPlaceholderData: false, error: null, refetch: () => undefined };
    expect(result.current.table.tableProps(settled).isFetching).toBe(false);
    act(() => result.current.table.setFilter('search', 'ada'));
    expect(result.current.table.tableProps(settled).isFetching).toBe(true);
    await waitFor(() => expect(result.current.table.query.search).toBe('ada'));
    expect(result.current.table.tableProps(settled).isFetching).toBe(false);
    // Spaces alone change nothing that is sent, so the table does not wait for them.
    act(() => result.current.table.setFilter('search', 'ada '));
    expect(result.current.table.tableProps(settled).isFetching).toBe(false);
  });

  it('changes the rows per page, keeps the first row shown, and remembers the choice for that table only', () => {
    const { result, unmount } = renderTable('/users?page=4');
    act(() => result.current.table.setPageSize(25)); // rows 31-40 were shown: row 31 is on page 2 of 25
    expect(result.current.table.query).toMatchObject({ page: 2, pageSize: 25 });
    unmount();
    expect(renderTable('/users').result.current.table.query.pageSize).toBe(25);
    expect(renderTable('/users', 'other').result.current.table.query.pageSize).toBe(10);
  });

  it('ignores a remembered size it does not offer', () => {
    window.localStorage.setItem('tableRows:people', '1000');
    expect(renderTable('/users').result.current.table.query.pageSize).toBe(10);
  });
});
