import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Notebook } from './notebook';

function renderNotebook() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <Notebook runId="run-1" initial={{ text: 'Earlier note', updatedAt: '2026-01-01T09:00:00.000Z' }} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('Notebook', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const puts = () =>
    fetchMock.mock.calls.map(([url, init]) => ({
      url,
      method: init?.method,
      text: (JSON.parse(String(init?.body)) as { text: string }).text,
    }));

  beforeEach(() => {
    fetchMock.mockReset();
    fetchMock.mockImplementation(
      async (_url, init) =>
        new Response(
          JSON.stringify({
            notes: {
              text: (JSON.parse(String(init?.body)) as { text: string }).text,
              updatedAt: '2026-01-01T10:00:00.000Z',
            },
          }),
          { status: 200 },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('saves once after a burst of typing, with the last text, and then says it is saved', async () => {
    renderNotebook();
    const box = screen.getByRole('textbox', { name: 'Your notes' });
    expect((box as HTMLTextAreaElement).value).toBe('Earlier note');
    fireEvent.change(box, { target: { value: 'Earlier note\nrota' } });
    fireEvent.change(box, { target: { value: 'Earlier note\nrota-share.example' } });
    expect(screen.getByText('Saving...')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    await waitFor(() => expect(screen.getByText(/^Saved at /)).toBeTruthy(), { timeout: 3000 });
    expect(puts()).toEqual([{ url: '/api/runs/run-1/notes', method: 'PUT', text: 'Earlier note\nrota-share.example' }]);
  });

  it('saves what is still unsaved when it closes', async () => {
    const view = renderNotebook();
    fireEvent.change(screen.getByRole('textbox', { name: 'Your notes' }), { target: { value: 'Last thought' } });
    view.unmount();
    await waitFor(() =>
      expect(puts()).toEqual([{ url: '/api/runs/run-1/notes', method: 'PUT', text: 'Last thought' }]),
    );
  });

  it('says when the notes could not be saved and offers to try again', async () => {
    fetchMock.mockImplementation(
      async () => new Response(JSON.stringify({ error: 'Cannot reach the server.' }), { status: 503 }),
    );
    renderNotebook();
    const box = screen.getByRole('textbox', { name: 'Your notes' });
    fireEvent.change(box, { target: { value: 'Unsaved' } });
    fireEvent.blur(box);
    await waitFor(() => expect(screen.getByText('Not saved: Cannot reach the server.')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
