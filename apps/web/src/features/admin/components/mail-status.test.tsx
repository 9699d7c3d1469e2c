import type { MailStatusResponse } from '@tradecraft/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MailStatus } from './mail-status';

const off: MailStatusResponse = { enabled: false, server: null, backlog: 0, lastDeliveredAt: null, lastError: null };

function renderCard(status: MailStatusResponse) {
  const fetchMock = vi.fn<typeof fetch>(async () => new Response(JSON.stringify(status), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MailStatus />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return fetchMock;
}

describe('the mail card on the admin dashboard', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(cleanup);

  it('shows the mail server, the backlog and the latest error', async () => {
    const fetchMock = renderCard({
      enabled: true,
      server: 'smtp://mail.example.org:587',
      backlog: 4,
      lastDeliveredAt: null,
      lastError: { message: 'The mail server could not be reached (ECONNREFUSED).', at: new Date().toISOString() },
    });
    expect(await screen.findByRole('heading', { name: 'Mail' })).toBeTruthy();
    expect(String(fetchMock.mock.calls[0]![0])).toContain('/api/mail/status');
    expect(screen.getByText(/Mail goes through smtp:\/\/mail\.example\.org:587/)).toBeTruthy();
    expect(screen.getByText('4').parentElement?.textContent).toBe('4 waiting');
    expect(screen.getByText('Last delivered: not in the last week')).toBeTruthy();
    expect(screen.getByText('The mail server could not be reached (ECONNREFUSED).')).toBeTruthy();
  });

  it('says what the admin must set while mail is off', async () => {
    renderCard(off);
    expect(await screen.findByText(/Mail is not configured.*Set SMTP_URL and MAIL_FROM/)).toBeTruthy();
    expect(screen.queryByText(/waiting/)).toBeNull();
  });
});
