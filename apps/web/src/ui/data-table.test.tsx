import { MantineProvider } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from './data-table';
import { Pager } from './pager';

afterEach(cleanup);

interface Row {
  id: string;
  name: string;
}

const column = createColumnHelper<Row>();
const columns = [column.accessor('name', { id: 'name', header: 'Name', size: 200 })];
const rows: Row[] = Array.from({ length: 23 }, (_, index) => ({
  id: String(index),
  name: `user ${String(index).padStart(2, '0')}`,
}));

const renderWith = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);
const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent);

describe('Pager', () => {
  it("shows five page numbers at a time; '<<' and '>>' move a whole window", () => {
    const onChange = vi.fn();
    const { rerender } = renderWith(<Pager page={3} pageCount={12} onChange={onChange} />);
    expect(screen.getAllByRole('button', { name: /^Page / }).map((button) => button.textContent)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveProperty('ariaCurrent', 'page');
    expect(screen.getByRole('button', { name: 'Previous 5 pages' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Next 5 pages' }));
    expect(onChange).toHaveBeenLastCalledWith(6);

    rerender(
      <MantineProvider>
        <Pager page={11} pageCount={12} onChange={onChange} />
      </MantineProvider>,
    );
    expect(screen.getAllByRole('button', { name: /^Page / }).map((button) => button.textContent)).toEqual(['11', '12']);
    expect(screen.getByRole('button', { name: 'Next 5 pages' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous 5 pages' }));
    expect(onChange).toHaveBeenLastCalledWith(6);
  });
});

describe('DataTable in client mode', () => {
  it('pages 10 rows at a time and sorts ascending on the first click, descending on the next', () => {
    renderWith(
      <DataTable
        label="People"
        columns={columns}
        data={rows}
        getRowId={(row) => row.id}
        emptyMessage="Nobody yet."
        itemName="people"
      />,
    );
    expect(names()).toHaveLength(10);
    expect(screen.getByText('Showing 1–10 of 23 people')).toBeTruthy();

    const header = screen.getByRole('columnheader', { name: /Name/ });
    expect(header.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    expect(names()[0]).toBe('user 00');
    fireEvent.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(names()[0]).toBe('user 22');
    fireEvent.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(names()).toEqual(['user 20', 'user 21', 'user 22']);
  });

  it('says so when loading, when empty, and offers Retry when loading failed', () => {
    const onRetry = vi.fn();
    const { rerender } = renderWith(
      <DataTable
        label="People"
        columns={columns}
        data={undefined}
        isLoading
        getRowId={(row) => row.id}
        emptyMessage="Nobody yet."
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading...');

    rerender(
      <MantineProvider>
        <DataTable label="People" columns={columns} data={[]} getRowId={(row) => row.id} emptyMessage="Nobody yet." />
      </MantineProvider>,
    );
    expect(screen.getByText('Nobody yet.')).toBeTruthy();

    rerender(
      <MantineProvider>
        <DataTable
          label="People"
          columns={columns}
          data={undefined}
          error={new Error('The server answered 500.')}
          onRetry={onRetry}
          getRowId={(row) => row.id}
          emptyMessage="Nobody yet."
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The server answered 500.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('resizes a column with the keyboard, never below 50 px', () => {
    renderWith(
      <DataTable label="People" columns={columns} data={rows} getRowId={(row) => row.id} emptyMessage="Nobody yet." />,
    );
    const grip = screen.getByRole('separator', { name: 'Resize Name column' });
    expect(grip.getAttribute('aria-valuenow')).toBe('200');
    fireEvent.keyDown(grip, { key: 'ArrowRight' });
    expect(grip.getAttribute('aria-valuenow')).toBe('210');
    for (let index = 0; index < 30; index += 1) fireEvent.keyDown(grip, { key: 'ArrowLeft' });
    expect(grip.getAttribute('aria-valuenow')).toBe('50');
  });
});

describe('DataTable in server mode', () => {
  it('hands sorting and paging to the caller and shows the rows it is given', () => {
    const onSortingChange = vi.fn();
    const onPageChange = vi.fn();
    renderWith(
      <DataTable
        label="People"
        columns={columns}
        data={rows.slice(0, 10)}
        getRowId={(row) => row.id}
        emptyMessage="Nobody yet."
        sorting={[{ id: 'name', desc: true }]}
        onSortingChange={onSortingChange}
        paging={{ page: 1, total: 1000, onPageChange }}
      />,
    );
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
    expect(names()[0]).toBe('user 00'); // not re-sorted in the browser
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    expect(onSortingChange).toHaveBeenCalledWith([{ id: 'name', desc: false }]);
    fireEvent.click(screen.getByRole('button', { name: 'Next 5 pages' }));
    expect(onPageChange).toHaveBeenCalledWith(6);
  });
});
