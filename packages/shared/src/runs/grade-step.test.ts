import { describe, expect, it } from 'vitest';
import { everyKindScenario } from '../scenarios/every-kind.fixture';
import { checkScenario } from '../scenarios/check-scenario';
import type { ScenarioStep } from '../scenarios/scenario.schema';
import { gradeStep, validateAnswer } from './grade-step';
import { shownOrder } from './shuffle';

const checked = checkScenario(everyKindScenario());
if (!checked.ok) throw new Error('the fixture must pass');
const stepOf = (id: string): ScenarioStep => checked.scenario.steps.find((step) => step.id === id)!;
const base = { stepId: 'x', timeMs: 1000 };
const plain = { order: [0, 1, 2], hintOpened: false, hintCost: 0.25, firstSubmission: true };

describe('validateAnswer', () => {
  it.each<[string, string, Record<string, unknown>, string]>([
    ['the wrong kind of answer', 'many', { optionIndex: 0 }, 'This step is a multi step; answer it with selected.'],
    [
      'a kind that is not the step kind',
      'many',
      { kind: 'rank', selected: [0] },
      'This step is a multi step; answer it with selected.',
    ],
    ['an option out of range', 'pick', { optionIndex: 3 }, 'That option does not exist on this step.'],
    ['a duplicate selection', 'many', { selected: [0, 0] }, 'Select each option at most once.'],
    ['a duplicate in an order', 'order', { order: [0, 0, 1] }, 'Put each item in the order once.'],
    ['an order missing an item', 'order', { order: [0, 1] }, 'Order all 3 items.'],
    ['an unknown term', 'guess', { term: 'maybe', confidence: 'low' }, 'Choose one of the seven likelihood terms.'],
    [
      'a missing confidence when asked',
      'guess',
      { term: 'likely' },
      'Say how confident you are: low, moderate or high.',
    ],
    ['an unknown grade', 'grade', { reliability: 'G', credibility: 2 }, 'Reliability is a letter from A to F.'],
    ['more values than fields', 'pull', { values: ['a', 'b', 'c'] }, 'Give one value for each of the 2 fields.'],
    [
      'a matrix of the wrong size',
      'weigh',
      { marks: [['C', 'I']], best: 0 },
      'Mark 2 rows of evidence against 2 hypotheses.',
    ],
    ['a text over the limit', 'bluf', { text: 'x'.repeat(20_001) }, 'The text is at most 20,000 characters.'],
  ])('refuses %s', (_case, id, fields, message) => {
    expect(validateAnswer(stepOf(id), { ...base, ...fields } as never)).toBe(message);
  });

  it('accepts a well-formed answer of every kind', () => {
    expect(validateAnswer(stepOf('pick'), { ...base, optionIndex: 2 })).toBeNull();
    expect(validateAnswer(stepOf('many'), { ...base, selected: [] })).toBeNull();
    expect(validateAnswer(stepOf('order'), { ...base, order: [2, 0, 1] })).toBeNull();
    expect(validateAnswer(stepOf('guess'), { ...base, term: 'likely', confidence: 'high' })).toBeNull();
    expect(validateAnswer(stepOf('grade'), { ...base, reliability: 'F', credibility: 6 })).toBeNull();
    expect(validateAnswer(stepOf('pull'), { ...base, values: ['', ''] })).toBeNull();
    expect(
      validateAnswer(stepOf('weigh'), {
        ...base,
        marks: [
          ['C', null],
          ['I', 'C'],
        ],
        best: 1,
      }),
    ).toBeNull();
    expect(validateAnswer(stepOf('bluf'), { ...base, text: '' })).toBeNull();
  });
});

describe('gradeStep', () => {
  it('speaks in shown indexes: the shown option picked is mapped to the file', () => {
    // Shown order: file option 2 first, then 0, then 1.
    const graded = gradeStep(stepOf('pick'), { ...base, optionIndex: 1 }, { ...plain, order: [2, 0, 1] });
    expect(graded.fileOptionIndex).toBe(0);
    expect(graded.earnedThousandths).toBe(1000);
    expect(graded.result).toMatchObject({
      kind: 'choice',
      chosenIndex: 1,
      correctIndex: 1,
      chosenText: 'Right one',
      verdict: 'right',
    });
  });

  it('gives a second-best option its credit', () => {
    const graded = gradeStep(stepOf('pick'), { ...base, optionIndex: 1 }, plain);
    expect(graded.result).toMatchObject({ credit: 0.5, verdict: 'partial' });
    // Its headline says partly right, never "Incorrect" (docs/scoring.md).
    expect(graded.feedback).toMatch(/^Partly right: 0\.5 credit\. The best answer was: "Right one"/);
  });

  it('charges an opened hint on the first submission only, and pays nothing after a Retry', () => {
    expect(
      gradeStep(stepOf('pick'), { ...base, optionIndex: 0 }, { ...plain, hintOpened: true }).earnedThousandths,
    ).toBe(750);
    const later = gradeStep(stepOf('pick'), { ...base, optionIndex: 0 }, { ...plain, firstSubmission: false });
    expect(later.earnedThousandths).toBe(0);
    expect(later.result).toMatchObject({ rawCredit: 1, credit: 0, firstSubmission: false });
  });

  it('earns nothing on an unscored step but still reveals the key', () => {
    const graded = gradeStep(stepOf('brief'), { ...base, optionIndex: 0 }, { ...plain, order: [0, 1] });
    expect(graded.earnedThousandths).toBe(0);
    expect(graded.result).toMatchObject({ scored: false, correctText: 'Acknowledge' });
  });

  it('grades a reversed rank as 0 and keeps the file order as the key', () => {
    const order = [1, 2, 0];
    const reversedShown = [2, 1, 0].map((file) => order.indexOf(file));
    const graded = gradeStep(stepOf('order'), { ...base, order: reversedShown }, { ...plain, order });
    expect(graded.earnedThousandths).toBe(0);
    expect(graded.result.kind === 'rank' && graded.result.items.map((item) => item.text)).toEqual([
      'First',
      'Second',
      'Third',
    ]);
  });

  it('sends a weak estimate down the below branch by its raw credit', () => {
    const graded = gradeStep(stepOf('guess'), { ...base, term: 'unlikely', confidence: 'low' }, plain);
    expect(graded.outcome).toEqual({ credit: 0 });
    expect(graded.result).toMatchObject({ accept: ['likely', 'very-likely'], outcome: true, distance: 2 });
  });

  it('grades an extract with refanged, oddly cased values', () => {
    const graded = gradeStep(stepOf('pull'), { ...base, values: ['EVIL[.]Example.com.', ' 192.0.2.001 '] }, plain);
    expect(graded.earnedThousandths).toBe(1000);
  });

  it('opens a pending review for a scored write step and gives the automatic share', () => {
    const graded = gradeStep(stepOf('bluf'), { ...base, text: 'TLP:AMBER APT29 is very likely behind it.' }, plain);
    expect(graded.earnedThousandths).toBe(300);
    expect(graded.result).toMatchObject({
      kind: 'write',
      review: { status: 'pending' },
      modelAnswer: 'TLP:AMBER APT29 is very likely behind it.',
    });
  });
});

describe('shownOrder', () => {
  it('is a permutation, the same for the same run and step, different across runs', () => {
    const first = shownOrder('run-1', 'order', 6);
    expect([...first].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(shownOrder('run-1', 'order', 6)).toEqual(first);
    const orders = new Set(Array.from({ length: 30 }, (_, index) => shownOrder(`run-${index}`, 'order', 6).join()));
    expect(orders.size).toBeGreaterThan(20);
  });
});

describe('the run order of ACH hypotheses', () => {
  // The weigh step: hypotheses Criminal, State; rows Ransom note [C, C], Wiper [I, C]; key State (1).
  const swapped = { ...plain, order: [1, 0] };

  it('reads the marks and the pick in the shown order and grades them against the file key', () => {
    const graded = gradeStep(
      stepOf('weigh'),
      {
        ...base,
        marks: [
          ['C', 'C'],
          ['C', 'I'],
        ],
        best: 0,
      },
      swapped,
    );
    expect(graded.earnedThousandths).toBe(1000);
    expect(graded.decision).toBe('Most likely: State');
    expect(graded.result).toMatchObject({
      kind: 'ach',
      hypotheses: ['State', 'Criminal'],
      rows: [
        {
          text: 'Ransom note',
          cells: [
            { key: 'C', right: true },
            { key: 'C', right: true },
          ],
        },
        {
          text: 'Wiper',
          cells: [
            { key: 'C', right: true },
            { key: 'I', right: true },
          ],
        },
      ],
      best: { given: 0, key: 0, right: true },
    });
  });

  it('does not credit the file order when the run shows another', () => {
    const graded = gradeStep(
      stepOf('weigh'),
      {
        ...base,
        marks: [
          ['C', 'C'],
          ['I', 'C'],
        ],
        best: 1,
      },
      swapped,
    );
    expect(graded.earnedThousandths).toBe(250);
    expect(graded.result).toMatchObject({ best: { given: 1, key: 0, right: false } });
  });
});
