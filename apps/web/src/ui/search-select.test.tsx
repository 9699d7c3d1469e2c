import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
// Typing a search and the nothing-found message are walked in the browser (e2e/specs/programmes.spec.ts).
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SearchSelect, type ChoicesPage } from './search-select';

afterEach(cleanup);

const NAMES = Array.from({ length: 30 }, (_, index) => `Drill ${String(index).padStart(2, '0')}`);
/** A server that answers the first 20 names holding the text. */
const server = vi.fn(async (search: string): Promise<ChoicesPage> => {
  const matches = NAMES.filter((name) => name.toLowerCase().includes(search.toLowerCase()));
  return { items: matches.slice(0, 20).map((name) => ({ value: name, label: name })), more: matches.length > 20 };
});

function Picker({
  initial = null,
  initialLabel,
  fetchChoices = server,
}: {
  initial?: string | null;
  initialLabel?: string;
  fetchChoices?: (search: string) => Promise<ChoicesPage>;
}) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <SearchSelect
      label="Scenario"
      queryKey={['test-choices']}
      fetchChoices={fetchChoices}
      value={value}
      valueLabel={initialLabel}
      onChange={setValue}
      nothingFoundMessage="No scenario has that in its name"
    />
  );
}

const renderPicker = (ui: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MantineProvider env="test">{ui}</MantineProvider>
    </QueryClientProvider>,
  );

describe('SearchSelect', () => {
  it('lists the first 20 from the server and says more can be found by typing', async () => {
    renderPicker(<Picker />);
    fireEvent.click(screen.getByRole('combobox', { name: 'Scenario' }));
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(20));
    expect(screen.getByText(/Only the first 20 are listed/)).toBeTruthy();
    expect(server).toHaveBeenCalledWith('');
  });

  it("shows the chosen value's label even when the first choices leave it out", async () => {
    renderPicker(<Picker initial="far-away" initialLabel="Far away drill" />);
    await waitFor(() => expect(server).toHaveBeenCalled());
    expect((screen.getByRole('combobox', { name: 'Scenario' }) as HTMLInputElement).value).toBe('Far away drill');
  });

  it("says the server's refusal when asking for choices fails, not that nothing matches", async () => {
    const refusing = async (): Promise<ChoicesPage> => {
      throw new Error('You need to sign in again.');
    };
    renderPicker(<Picker fetchChoices={refusing} />);
    await waitFor(() => expect(screen.getByText('You need to sign in again.')).toBeTruthy(), { timeout: 4000 });
  });
});
