import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useServerTable } from './use-server-table';

afterEach(cleanup);

const SORT_COLUMNS = ['name', 'email'] as const;

function renderTable(initialUrl: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[initialUrl]}>{children}</MemoryRouter>
  );
  return renderHook(
    () => {
      const table = useServerTable({
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
});
