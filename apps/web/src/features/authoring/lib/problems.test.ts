import { checkScenario } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import { toDefinition, toDraft } from './draft';
import { fieldCandidates, problemCountsByStep, problemPlace, problemsOfStep, scenarioProblems } from './problems';

describe('checker problems in the editor', () => {
  it('places a problem at its step and field, or on the scenario', () => {
    expect(problemPlace('steps[2].options[1].next_step')).toEqual({ stepIndex: 2, field: 'options[1].next_step' });
    expect(problemPlace('steps[4]')).toEqual({ stepIndex: 4, field: '' });
    expect(problemPlace('name')).toEqual({ stepIndex: null, field: 'name' });
    expect(problemPlace('steps')).toEqual({ stepIndex: null, field: 'steps' });
    expect(problemPlace('(file)')).toEqual({ stepIndex: null, field: '' });
  });

  it('tries the field, then each enclosing field, then the form', () => {
    expect(fieldCandidates('options[1].next_step')).toEqual(['options[1].next_step', 'options[1]', 'options', '']);
    expect(fieldCandidates('below.credit')).toEqual(['below.credit', 'below', '']);
    expect(fieldCandidates('')).toEqual(['']);
  });

  it('maps what the shared checker says of a draft to its steps and fields', () => {
    const draft = toDraft({
      name: '',
      type: 'Phishing',
      difficulty: 1,
      description: 'd',
      steps: [
        {
          id: 'a',
          title: 'A',
          description: 'd',
          options: [{ text: 'x', next_step: 'nowhere' }, 'y'],
          correct_option: 0,
        },
        { id: 'b', kind: 'estimate', title: '', description: 'd', statement: 's', accept: ['likely'], outcome: true },
      ],
    });
    const check = checkScenario(toDefinition(draft));
    expect(check.ok).toBe(false);
    const problems = check.ok ? [] : check.problems;
    expect(scenarioProblems(problems).get('name')).toEqual(['must not be empty']);
    expect(problemsOfStep(problems, 1).get('title')).toEqual(['must not be empty']);
    expect(problemCountsByStep(problems).get(1)).toBe(1);
  });
});
