import type { ScenarioListItem, ScenarioProgress } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import {
  applyView,
  DEFAULT_VIEW,
  matchedTechniques,
  matchesSearch,
  readPickerView,
  writePickerView,
} from './picker-filters';

const NOT_STARTED: ScenarioProgress = { inProgress: null, best: null, completedRuns: 0 };

function item(name: string, extra: Partial<ScenarioListItem> = {}): ScenarioListItem {
  return {
    id: name.toLowerCase(),
    name,
    type: 'Phishing',
    difficulty: 3,
    description: `About ${name}.`,
    stepCount: 3,
    recommended: false,
    startHere: false,
    techniques: [],
    publishedAt: '2026-11-01T00:00:00.000Z',
    progress: NOT_STARTED,
    ...extra,
  };
}

const names = (list: ScenarioListItem[]) => list.map((scenario) => scenario.name);

describe('the picker view', () => {
  it('reads and writes its state in the query string, leaving defaults out', () => {
    const view = { q: 'T1566 lure', difficulty: '2', type: 'Data Breach', sort: 'newest' as const };
    expect(readPickerView(writePickerView(view))).toEqual(view);
    expect(writePickerView(DEFAULT_VIEW).toString()).toBe('');
    expect(readPickerView(new URLSearchParams('sort=sideways&difficulty='))).toEqual(DEFAULT_VIEW);
  });

  it('finds words in the name or description and technique ids by their start', () => {
    const scenarios = [
      item('Voicemail lure', { techniques: ['T1566.001'] }),
      item('Water utility', { description: 'A PLC defaced.', techniques: ['T0883'] }),
    ];
    expect(names(applyView(scenarios, { ...DEFAULT_VIEW, q: 'plc' }))).toEqual(['Water utility']);
    expect(names(applyView(scenarios, { ...DEFAULT_VIEW, q: 't1566' }))).toEqual(['Voicemail lure']);
    expect(names(applyView(scenarios, { ...DEFAULT_VIEW, q: 'voicemail T0883' }))).toEqual([]);
    expect(matchedTechniques(scenarios[0]!, 'T1566')).toEqual(['T1566.001']);
  });

  it('puts the tutorial to start with first, then the recommended, when sorted by recommendation', () => {
    const scenarios = [item('Alpha'), item('Bravo', { recommended: true }), item('Tutorial', { startHere: true })];
    expect(names(applyView(scenarios, DEFAULT_VIEW))).toEqual(['Tutorial', 'Bravo', 'Alpha']);
  });

  it('sorts by difficulty, by newest and by not yet played', () => {
    const scenarios = [
      item('Done', {
        difficulty: 1,
        progress: { ...NOT_STARTED, best: { runId: 'r', scorePercent: 90, result: 'Pass' }, completedRuns: 1 },
      }),
      item('Going', {
        difficulty: 5,
        publishedAt: '2026-11-20T00:00:00.000Z',
        progress: { ...NOT_STARTED, inProgress: { runId: 'g', step: 2 } },
      }),
      item('Fresh', { difficulty: 3, publishedAt: '2026-11-10T00:00:00.000Z' }),
    ];
    expect(names(applyView(scenarios, { ...DEFAULT_VIEW, sort: 'difficulty' }))).toEqual(['Done', 'Fresh', 'Going']);
    expect(names(applyView(scenarios, { ...DEFAULT_VIEW, sort: 'newest' }))).toEqual(['Going', 'Fresh', 'Done']);
    expect(names(applyView(scenarios, { ...DEFAULT_VIEW, sort: 'unplayed' }))).toEqual(['Fresh', 'Going', 'Done']);
  });
});

describe('the picker search', () => {
  it('matches the scenario type too: "ransom" finds a Ransomware scenario whose name and text never say it', () => {
    const quiet = item('Citrix session hijack', { type: 'Ransomware', description: 'A stolen session, then a note.' });
    expect(matchesSearch(quiet, 'ransom')).toBe(true);
    expect(matchesSearch(quiet, 'ransom citrix')).toBe(true);
    expect(matchesSearch(item('Voicemail lure'), 'ransom')).toBe(false);
  });
});
