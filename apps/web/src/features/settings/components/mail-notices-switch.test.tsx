import type { MailPreferences } from '@tradecraft/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MailNoticesSwitch } from './mail-notices-switch';

function renderSwitch(initial: MailPreferences) {
  let stored = initial;
  const fetchMock = vi.fn<typeof fetch>(async (_url, init) => {
    if (init?.method === 'PUT') stored = { ...stored, ...(JSON.parse(String(init.body)) as Partial<MailPreferences>) };
    return new Response(JSON.stringify(stored), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MailNoticesSwitch />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return fetchMock;
}

describe('"Email me my notifications" in Settings', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(cleanup);

  it('is off by default and turning it on saves the choice on the server', async () => {
    const fetchMock = renderSwitch({ configured: true, emailNotices: false });
    const toggle = (await screen.findByRole('switch', { name: /Email me my notifications/ })) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(screen.queryByText(/not configured/)).toBeNull();
    fireEvent.click(toggle);
    await vi.waitFor(() => expect(toggle.checked).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(String(put![0])).toContain('/api/mail/preferences');
    expect(JSON.parse(String(put![1]!.body))).toEqual({ emailNotices: true });
  });

  it('says mail is not configured when the server has no mail server', async () => {
    renderSwitch({ configured: false, emailNotices: false });
    expect(await screen.findByText(/Mail is not configured on this server yet/)).toBeTruthy();
  });
});
