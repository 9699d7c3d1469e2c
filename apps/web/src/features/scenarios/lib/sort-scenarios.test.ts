import type { ScenarioListItem } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import { nextSort, sortScenarios } from './sort-scenarios';

const item = (name: string, type: string, difficulty: number): ScenarioListItem => ({
  id: name,
  name,
  type,
  difficulty,
  description: '',
  stepCount: 3,
  recommended: false,
  startHere: false,
  techniques: [],
  publishedAt: '2026-11-01T00:00:00.000Z',
  progress: { inProgress: null, best: null, completedRuns: 0 },
});

const scenarios = [item('beta', 'Ransomware', 2), item('Alpha', 'Phishing', 5), item('gamma', 'Data Breach', 2)];

describe('sorting the configurator table', () => {
  it('sorts ascending on the first click and descending on the next', () => {
    const first = nextSort(null, 'difficulty');
    expect(first).toEqual({ column: 'difficulty', direction: 'asc' });
    expect(nextSort(first, 'difficulty')).toEqual({ column: 'difficulty', direction: 'desc' });
    expect(nextSort(nextSort(first, 'difficulty'), 'name')).toEqual({ column: 'name', direction: 'asc' });
  });

  it('compares names without regard to case, difficulties as numbers, ties by name', () => {
    expect(sortScenarios(scenarios, { column: 'name', direction: 'asc' }).map((s) => s.name)).toEqual([
      'Alpha',
      'beta',
      'gamma',
    ]);
    expect(sortScenarios(scenarios, { column: 'difficulty', direction: 'desc' }).map((s) => s.name)).toEqual([
      'Alpha',
      'beta',
      'gamma',
    ]);
    expect(sortScenarios(scenarios, { column: 'type', direction: 'desc' }).map((s) => s.type)).toEqual([
      'Ransomware',
      'Phishing',
      'Data Breach',
    ]);
  });
});
