import type { XapiStatusResponse } from '@tradecraft/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { xapiStatusQueryKey } from '../api/get-xapi-status';
import { XapiStatus } from './xapi-status';

const off: XapiStatusResponse = {
  enabled: false,
  endpoint: null,
  backlog: 0,
  rejected: 0,
  oldestWaitingSince: null,
  lastDeliveredAt: null,
  lastError: null,
};

function renderCard(status: XapiStatusResponse) {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async () => new Response(JSON.stringify(status), { status: 200 })),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <XapiStatus />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, client };
}

describe('the xAPI card on the admin dashboard', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(cleanup);

  it('shows the backlog, the refused statements and the latest error of the LRS', async () => {
    renderCard({
      ...off,
      enabled: true,
      endpoint: 'https://lrs.example/data/xAPI',
      backlog: 12,
      rejected: 1,
      oldestWaitingSince: new Date(Date.now() - 30 * 60_000).toISOString(),
      lastError: { message: 'The LRS could not be reached (ECONNREFUSED).', at: new Date().toISOString() },
    });
    expect(await screen.findByRole('heading', { name: 'Learning Record Store' })).toBeTruthy();
    expect(screen.getByText(/xAPI statements go to https:\/\/lrs\.example\/data\/xAPI/)).toBeTruthy();
    expect(screen.getByText('12').parentElement?.textContent).toMatch(/12 waiting \(oldest 30 minutes ago\)/);
    expect(screen.getByText('1').parentElement?.textContent).toBe('1 refused by the LRS');
    expect(screen.getByText('Last delivered: not in the last week')).toBeTruthy();
    expect(screen.getByText('The LRS could not be reached (ECONNREFUSED).')).toBeTruthy();
  });

  it('shows nothing while xAPI is off', async () => {
    const { container, client } = renderCard(off);
    await vi.waitFor(() => expect(client.getQueryState(xapiStatusQueryKey)?.status).toBe('success'));
    expect(container.querySelector('section')).toBeNull();
  });
});
