import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyScenario, toDefinition } from '../lib/draft';
import { ScenarioEditor } from './scenario-editor';

beforeEach(() => {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterEach(cleanup);

function renderEditor() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <ScenarioEditor
            start={{
              scenarioId: null,
              definition: toDefinition(emptyScenario()),
              revision: null,
              versionNumber: null,
              hasDraft: false,
            }}
          />
        ),
      },
    ],
    { initialEntries: ['/'] },
  );
  return render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the scenario editor', () => {
  it('opens a new scenario with the checker listing what is missing', async () => {
    renderEditor();
    expect(await screen.findByRole('heading', { name: 'New scenario', level: 1 })).toBeTruthy();
  });
});
