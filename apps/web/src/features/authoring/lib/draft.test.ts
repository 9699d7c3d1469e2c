import { checkScenario } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import {
  addStep,
  changeKind,
  deleteStep,
  duplicateStep,
  editOptions,
  emptyScenario,
  moveStep,
  toDefinition,
  toDraft,
  updateStep,
} from './draft';

const file = {
  id: 'drill',
  name: 'Drill',
  type: 'Phishing',
  difficulty: 2,
  description: 'A drill.',
  steps: [
    {
      id: 'first',
      title: 'First',
      description: 'What now?',
      options: ['Block it', { text: 'Wait', next_step: 'second' }],
      correct_option: 0,
    },
    {
      id: 'second',
      kind: 'rank',
      title: 'Second',
      description: 'Order them.',
      options: ['a', 'b', 'c'],
      next_step: 'first',
    },
  ],
};

describe('the editor draft', () => {
  it('reads a file (plain-string options, kind absent) and writes the same scenario back', () => {
    const draft = toDraft(file);
    expect(draft.steps[0]?.kind).toBe('choice');
    expect(draft.steps[0]?.options?.[0]).toEqual({ text: 'Block it' });
    const written = toDefinition(draft);
    const [before, after] = [checkScenario(file), checkScenario(written)];
    expect(before.ok && after.ok && after.scenario).toEqual(before.ok && before.scenario);
  });

  it('writes only the fields of the step kind and drops cleared optional texts', () => {
    let draft = toDraft(file);
    draft = updateStep(draft, 0, { hint: '', feedback: '  ', mitre_attack: '' });
    draft = updateStep(draft, 1, changeKind(draft.steps[1]!, 'estimate'));
    const steps = toDefinition(draft).steps as Record<string, unknown>[];
    expect(Object.keys(steps[0]!)).toEqual(['kind', 'id', 'title', 'description', 'options', 'correct_option']);
    expect(steps[1]).not.toHaveProperty('options');
    expect(steps[1]).toMatchObject({ kind: 'estimate', statement: '', accept: [], outcome: true, next_step: 'first' });
  });

  it('keeps fields it does not know, so the checker names them', () => {
    const draft = toDraft({ ...file, steps: [{ ...file.steps[0], colour: 'red' }, file.steps[1]] });
    const check = checkScenario(toDefinition(draft));
    expect(check.ok ? [] : check.problems.map((problem) => problem.path)).toContain('steps[0].colour');
  });

  it('carries a renamed step id into every way that leads to it', () => {
    const draft = updateStep(toDraft(file), 1, { id: 'review' });
    expect(draft.steps[0]?.options?.[1]?.next_step).toBe('review');
    const back = updateStep(draft, 0, { id: 'opening' });
    expect(back.steps[1]?.next_step).toBe('opening');
  });

  it('adds a step of a kind after the selected one, with a free id and what the kind needs', () => {
    const { draft, index } = addStep(toDraft(file), 0, 'ach');
    expect(index).toBe(1);
    expect(draft.steps.map((step) => step.id)).toEqual(['first', 'step-3', 'second']);
    expect(draft.steps[1]).toMatchObject({ kind: 'ach', hypotheses: ['', ''], best: 0 });
    expect(draft.steps[1]?.evidence).toHaveLength(2);
  });

  it('duplicates a step under a new id, moves and deletes steps', () => {
    const copied = duplicateStep(toDraft(file), 1);
    expect(copied.draft.steps.map((step) => step.id)).toEqual(['first', 'second', 'second-copy']);
    const moved = moveStep(copied.draft, 2, 0);
    expect(moved.steps.map((step) => step.id)).toEqual(['second-copy', 'first', 'second']);
    expect(deleteStep(moved, 0).steps.map((step) => step.id)).toEqual(['first', 'second']);
  });

  it('keeps the correct option pointing at the same option when options move or go', () => {
    const step = toDraft(file).steps[0]!;
    const withThird = editOptions(step, { type: 'add' });
    expect(withThird.options).toHaveLength(3);
    const moved = editOptions(withThird, { type: 'move', from: 0, to: 2 });
    expect(moved.options?.[moved.correct_option!]?.text).toBe('Block it');
    const removed = editOptions(moved, { type: 'remove', index: 0 });
    expect(removed.options?.[removed.correct_option!]?.text).toBe('Block it');
  });

  it('a change of kind fills up the options the new kind needs and marks one right for multi', () => {
    const rank = changeKind(toDraft(file).steps[0]!, 'rank');
    expect(rank.options).toHaveLength(3);
    const multi = changeKind(toDraft(file).steps[0]!, 'multi');
    expect(multi.options?.[0]?.correct).toBe(true);
  });

  it('starts a new scenario from one empty decision the checker asks to fill', () => {
    const check = checkScenario(toDefinition(emptyScenario()));
    expect(check.ok).toBe(false);
    const paths = check.ok ? [] : check.problems.map((problem) => problem.path);
    expect(paths).toEqual(
      expect.arrayContaining(['name', 'description', 'steps[0].title', 'steps[0].options[0].text']),
    );
  });
});
