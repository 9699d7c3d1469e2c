import type { PlayerStep, PlayerStepOfKind, StepKind } from '@tradecraft/shared';
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AchControl } from './ach-control';
import { EstimateControl } from './estimate-control';
import { ExtractControl } from './extract-control';
import { GradeSourceControl } from './grade-source-control';
import { MultiControl } from './multi-control';
import { RankControl } from './rank-control';
import { WriteControl } from './write-control';

const common = {
  id: 'step-1',
  position: 1,
  title: 'A step',
  description: 'What now?',
  artifacts: [],
  hint: null,
  hintState: { available: false, opened: false, cost: 0.25, text: null },
  technique: null,
  skill: 'analysis',
  scored: true,
  options: [],
} as const;

const step = <K extends StepKind>(kind: K, fields: Partial<PlayerStepOfKind<K>>) =>
  ({ ...common, kind, ...fields }) as unknown as PlayerStepOfKind<K>;

const wrap = (node: React.ReactNode) => render(<MantineProvider>{node}</MantineProvider>);

afterEach(cleanup);

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit answer' }));

describe('MultiControl', () => {
  it('sends the shown indexes ticked, in order, and an empty list when none applies', () => {
    const onSubmit = vi.fn();
    wrap(
      <MultiControl
        step={step('multi', { options: [{ text: 'A' }, { text: 'B' }, { text: 'C' }] })}
        result={null}
        busy={false}
        onSubmit={onSubmit}
      />,
    );
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ selected: [] });
    fireEvent.click(screen.getByRole('checkbox', { name: 'C' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'A' }));
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ selected: [0, 2] });
  });
});

describe('RankControl', () => {
  it('moves an item with its buttons, announces the move and sends the order', () => {
    const onSubmit = vi.fn();
    wrap(
      <RankControl
        step={step('rank', { options: [{ text: 'Patch' }, { text: 'Hunt' }, { text: 'Report' }] })}
        result={null}
        busy={false}
        onSubmit={onSubmit}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Move up: Report' }));
    expect(screen.getByRole('status').textContent).toBe('Report moved to position 2 of 3.');
    fireEvent.click(screen.getByRole('button', { name: 'Move up: Report' }));
    const items = within(screen.getByRole('list', { name: 'Your order' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '1Position 1: Report',
      '2Position 2: Patch',
      '3Position 3: Hunt',
    ]);
    expect((screen.getByRole('button', { name: 'Move up: Report' }) as HTMLButtonElement).disabled).toBe(true);
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ order: [2, 0, 1] });
  });
});

describe('EstimateControl', () => {
  it('shows every ICD 203 term with its range and asks for a confidence before sending', () => {
    const onSubmit = vi.fn();
    wrap(
      <EstimateControl
        step={step('estimate', { statement: 'They strike again', askConfidence: true })}
        result={null}
        busy={false}
        onSubmit={onSubmit}
      />,
    );
    expect(screen.getAllByRole('radio')).toHaveLength(10);
    expect(screen.getByRole('radio', { name: /Very likely\s*80-95 %/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /^Likely/ }));
    submit();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Choose a confidence.')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Moderate' }));
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ term: 'likely', confidence: 'moderate' });
  });
});

describe('GradeSourceControl', () => {
  it('sends reliability and credibility, each grade named with its definition', () => {
    const onSubmit = vi.fn();
    wrap(
      <GradeSourceControl
        step={step('grade-source', { artifact: 0 })}
        result={null}
        busy={false}
        onSubmit={onSubmit}
      />,
    );
    fireEvent.click(screen.getByRole('radio', { name: /^B\s*: Usually reliable$/ }));
    fireEvent.click(screen.getByRole('radio', { name: /^3\s*: Possibly true$/ }));
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ reliability: 'B', credibility: 3 });
  });
});

describe('ExtractControl', () => {
  it('sends one value per field as typed (defanged values are the server’s to normalise)', () => {
    const onSubmit = vi.fn();
    wrap(
      <ExtractControl
        step={step('extract', {
          fields: [
            { label: 'Relay domain', type: 'domain' },
            { label: 'Replay address', type: 'ip' },
          ],
        })}
        result={null}
        busy={false}
        onSubmit={onSubmit}
      />,
    );
    fireEvent.change(screen.getByRole('textbox', { name: /Relay domain/ }), {
      target: { value: 'login.voice-msgcenter[.]example' },
    });
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ values: ['login.voice-msgcenter[.]example', ''] });
  });
});

describe('AchControl', () => {
  const ach = step('ach', { hypotheses: ['Criminal', 'State'], evidence: ['Ransom note', 'Wiper'] });

  it('refuses to send with empty cells, then sends the matrix and the most likely hypothesis', () => {
    const onSubmit = vi.fn();
    wrap(<AchControl step={ach} result={null} busy={false} onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole('radio', { name: 'H2: State' }));
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Mark every cell: 4 cells are still empty.');
    const cell = (row: number, column: number) =>
      screen.getByRole('group', { name: `Evidence ${row} against H${column}` });
    fireEvent.click(within(cell(1, 1)).getByRole('radio', { name: 'Consistent' }));
    fireEvent.click(within(cell(1, 2)).getByRole('radio', { name: 'Inconsistent' }));
    fireEvent.click(within(cell(2, 1)).getByRole('radio', { name: 'Not applicable' }));
    fireEvent.click(within(cell(2, 2)).getByRole('radio', { name: 'Consistent' }));
    submit();
    expect(onSubmit).toHaveBeenLastCalledWith({
      marks: [
        ['C', 'I'],
        ['N', 'C'],
      ],
      best: 1,
    });
  });
});

describe('WriteControl', () => {
  it('counts words as they are typed and flags going over the limit', () => {
    wrap(
      <WriteControl
        step={step('write', {
          prompt: 'Write a BLUF.',
          maxWords: 3,
          checks: {
            tlp: true,
            estimativeLanguage: true,
            mustMention: [
              { kind: 'technique', label: 'an ATT&CK technique ID' },
              { kind: 'term', label: 'a name or term from the case' },
            ],
          },
          rubric: [{ criterion: 'Clear', points: 2 }],
        })}
        result={null}
        busy={false}
        onSubmit={vi.fn()}
      />,
    );
    expect(screen.getByText('0 / 3 words')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Your answer' }), {
      target: { value: 'TLP:GREEN  one\ntwo three' },
    });
    expect(screen.getByText('4 / 3 words (over the limit)')).toBeTruthy();
  });

  it('runs the automatic checks as the trainee types, naming what each looks for but not the term', () => {
    wrap(
      <WriteControl
        step={step('write', {
          prompt: 'Write a BLUF.',
          maxWords: 50,
          checks: {
            tlp: true,
            estimativeLanguage: true,
            mustMention: [
              { kind: 'technique', label: 'an ATT&CK technique ID' },
              { kind: 'term', label: 'a name or term from the case' },
            ],
          },
          rubric: [{ criterion: 'Clear', points: 2 }],
        })}
        result={null}
        busy={false}
        onSubmit={vi.fn()}
      />,
    );
    const live = () =>
      [...screen.getByTestId('live-checks').querySelectorAll('li')].map((item) => item.textContent ?? '');
    expect(live()).toEqual([
      expect.stringMatching(/^Starts with a TLP 2.0 marking.*: not yet$/),
      expect.stringMatching(/^States likelihood only with the seven ICD 203 terms.*: not yet$/),
      'Names an ATT&CK technique ID: not yet',
      'Names a name or term from the case: checked on submission',
      'Stays within 50 words: not yet',
    ]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Your answer' }), {
      target: { value: 'They possibly used T1566 again.' },
    });
    expect(live()).toEqual([
      expect.stringMatching(/: not met$/),
      expect.stringMatching(/: not met · Replace “possibly”$/),
      'Names an ATT&CK technique ID: met so far',
      'Names a name or term from the case: checked on submission',
      'Stays within 50 words: met so far',
    ]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Your answer' }), {
      target: { value: 'TLP:GREEN They likely used T1566 again.' },
    });
    expect(live().slice(0, 2)).toEqual([
      expect.stringMatching(/: met so far$/),
      expect.stringMatching(/: met so far$/),
    ]);
  });
});

// Keeps the type import used when a kind is added: every control above takes a PlayerStep of its kind.
export type { PlayerStep };
