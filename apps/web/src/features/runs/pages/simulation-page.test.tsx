import type { RunState } from '@tradecraft/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SimulationPage from './simulation-page';

const run: RunState = {
  id: 'run-1',
  scenarioId: 'lure',
  scenarioName: 'Voicemail lure',
  stepCount: 2,
  status: 'in_progress',
  score: 0,
  scoreThousandths: 0,
  scorePercent: 0,
  percentBase: 2,
  playedSteps: 0,
  bestPathSteps: 2,
  result: '-',
  pendingReviews: 0,
  awaitingReview: false,
  correctCount: 0,
  incorrectCount: 0,
  verdicts: { right: 0, partlyRight: 0, wrong: 0, afterRetry: 0, awaitingReview: 0 },
  techniqueScores: [],
  skillScores: [],
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  durationSeconds: 0,
  scenarioDeleted: false,
  readOnly: false,
  stepNumber: 1,
  stepsLeftOnBestPath: 2,
  resumable: true,
  debrief: null,
  currentStep: {
    kind: 'choice',
    id: 'triage',
    position: 1,
    title: 'A clerk reports an email',
    description: 'What now?',
    artifacts: [],
    hint: null,
    hintState: { available: false, opened: false, cost: 0.25, text: null },
    technique: null,
    skill: 'response',
    scored: true,
    options: [{ text: 'Purge it' }, { text: 'Ignore it' }],
  },
  answer: null,
  timeline: [],
};

function renderPage(entry: string) {
  const router = createMemoryRouter([{ path: '/simulation/:scenarioId', element: <SimulationPage /> }], {
    initialEntries: [entry],
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <StrictMode>
      <MantineProvider>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
  return router;
}

describe('SimulationPage', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    window.localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('starts exactly one run under StrictMode, keeps its id and puts it in the address', async () => {
    fetchMock.mockImplementation(async () => new Response(JSON.stringify({ run }), { status: 201 }));
    const router = renderPage('/simulation/lure');

    expect(await screen.findByRole('heading', { level: 2, name: 'A clerk reports an email' })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/runs');
    expect(router.state.location.search).toBe('?simId=run-1');
    expect(JSON.parse(window.localStorage.getItem('simulations') ?? '[]')).toEqual(['run-1']);
  });

  it('resumes the run named by simId without starting another', async () => {
    fetchMock.mockImplementation(async () => new Response(JSON.stringify({ run }), { status: 200 }));
    renderPage('/simulation/lure?simId=run-1&step=3');

    expect(await screen.findByRole('heading', { level: 2, name: 'A clerk reports an email' })).toBeTruthy();
    expect(fetchMock.mock.calls.map((call) => call[0])).toEqual(['/api/runs/run-1']);
  });

  it('says why loading failed and offers the way back instead of spinning', async () => {
    fetchMock.mockImplementation(
      async () => new Response(JSON.stringify({ error: 'Scenario not found.' }), { status: 404 }),
    );
    renderPage('/simulation/gone');

    expect((await screen.findByRole('alert')).textContent).toBe('Scenario not found.');
    expect(screen.getByRole('link', { name: 'Back to scenarios' }).getAttribute('href')).toBe('/scenarios');
    expect(screen.queryByText('Loading scenario...')).toBeNull();
  });
});
