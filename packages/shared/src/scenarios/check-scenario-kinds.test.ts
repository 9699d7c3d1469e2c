import { describe, expect, it } from 'vitest';
import { bestPath, checkScenario, formatProblem, type ScenarioCheckResult } from './check-scenario';
import { everyKindScenario } from './every-kind.fixture';

function problemsOf(result: ScenarioCheckResult): string[] {
  return result.ok ? [] : result.problems.map(formatProblem);
}

function changed(change: (steps: Array<Record<string, unknown>>) => void) {
  const scenario = everyKindScenario();
  change(scenario.steps);
  return scenario;
}

describe('checkScenario with every step kind', () => {
  it('accepts a scenario with one step of every kind, each with its kind set', () => {
    const result = checkScenario(everyKindScenario());
    expect(problemsOf(result)).toEqual([]);
    if (!result.ok) return;
    expect(result.scenario.steps.map((step) => step.kind)).toEqual([
      'choice',
      'choice',
      'multi',
      'rank',
      'estimate',
      'grade-source',
      'extract',
      'ach',
      'write',
    ]);
  });

  it.each<[string, (steps: Array<Record<string, unknown>>) => void, string[]]>([
    [
      'an unknown kind',
      (s) => (s[2]!.kind = 'quiz'),
      [
        'steps[2].kind: must be one of choice, multi, rank, estimate, grade-source, extract, ach, write (absent means choice); found text ("quiz")',
      ],
    ],
    [
      'options on an estimate step',
      (s) => (s[4]!.options = ['a', 'b']),
      ['steps[4].options: not a field of an estimate step (only choice, multi, rank steps have it)'],
    ],
    [
      'a term not on the ICD 203 scale',
      (s) => (s[4]!.accept = ['maybe']),
      [
        'steps[4].accept[0]: must be one of almost-no-chance, very-unlikely, unlikely, roughly-even-chance, likely, very-likely, almost-certain; found text ("maybe")',
      ],
    ],
    [
      'a grade out of range',
      (s) => Object.assign(s[5]!, { reliability: 'G', credibility: 7 }),
      [
        'steps[5].reliability: must be one of A, B, C, D, E, F; found text ("G")',
        'steps[5].credibility: must be at most 6, found the number 7',
      ],
    ],
    [
      'a graded artifact that does not exist',
      (s) => (s[5]!.artifact = 3),
      ['steps[5].artifact: 3 is out of range (1 artifacts)'],
    ],
    [
      'a graded artifact showing its own grade',
      (s) => ((s[5]!.artifacts as Array<Record<string, unknown>>)[0]!.admiralty = 'C3'),
      ['steps[5].artifacts[0].admiralty: the graded artifact cannot show its grade: that gives the answer away'],
    ],
    [
      'a multi step with no right option',
      (s) => (s[2]!.options = ['A', 'B']),
      ['steps[2].options: mark at least one option `correct: true`'],
    ],
    [
      'a choice credit not below the correct one',
      (s) => (s[1]!.options = ['Right one', { text: 'Also right', credit: 1 }]),
      ["steps[1].options[1].credit: must be below the correct option's 1, found 1"],
    ],
    [
      'an ACH row of the wrong width and a best out of range',
      (s) =>
        Object.assign(s[7]!, {
          evidence: [
            { text: 'x', marks: ['C', 'I', 'N'] },
            { text: 'y', marks: ['C', 'I'] },
          ],
          best: 2,
        }),
      [
        'steps[7].evidence[0].marks: needs one mark per hypothesis (2), found 3',
        'steps[7].best: 2 is out of range (2 hypotheses)',
      ],
    ],
    [
      'an extract step with too many fields',
      (s) => (s[6]!.fields = Array.from({ length: 7 }, () => ({ label: 'x', type: 'text', accept: ['x'] }))),
      ['steps[6].fields: has 7 fields, at most 6 allowed'],
    ],
    [
      'a below branch to nowhere',
      (s) => (s[4]!.below = { credit: 0.5, next_step: 'nowhere' }),
      ['steps[4].below.next_step: no step with id "nowhere"'],
    ],
    [
      'a stix artifact that is not JSON',
      (s) => (s[6]!.artifacts = [{ kind: 'stix', content: 'not json' }]),
      ['steps[6].artifacts[0].content: a stix artifact holds STIX 2.1 JSON, and this is not valid JSON'],
    ],
    [
      'a bad TLP label and Admiralty code',
      (s) => (s[6]!.artifacts = [{ kind: 'whois', content: 'x', tlp: 'WHITE', admiralty: 'G9' }]),
      [
        'steps[6].artifacts[0].tlp: must be one of RED, AMBER+STRICT, AMBER, GREEN, CLEAR; found text ("WHITE")',
        'steps[6].artifacts[0].admiralty: must be a reliability A-F then a credibility 1-6, such as B2 (found "G9")',
      ],
    ],
  ])('refuses %s', (_case, change, expected) => {
    expect(problemsOf(checkScenario(changed(change)))).toEqual(expected);
  });

  it('lists every problem of every layer in one pass: a bad difficulty and a dangling next_step', () => {
    const scenario = changed((s) => (s[1]!.options = ['Right one', { text: 'Wrong', next_step: 'nowhere' }]));
    scenario.difficulty = 9;
    expect(problemsOf(checkScenario(scenario))).toEqual([
      'difficulty: must be at most 5, found the number 9',
      'steps[1].options[1].next_step: no step with id "nowhere"',
    ]);
  });
});

describe('the best path', () => {
  it('follows the best answer of every kind and counts only scored steps', () => {
    const result = checkScenario(everyKindScenario());
    if (!result.ok) throw new Error('the fixture must pass');
    const path = bestPath(result.scenario.steps);
    expect(path.finishes).toBe(true);
    expect(path.stepIds).toEqual(['brief', 'pick', 'many', 'order', 'guess', 'grade', 'pull', 'weigh', 'bluf']);
    expect(path.scoredSteps).toBe(8);
    expect(path.creditThousandths).toBe(8000);
  });

  it('skips a consequence reached only below a credit', () => {
    const result = checkScenario(
      changed((s) => {
        s[4]!.below = { credit: 0.5, next_step: 'pull' };
        s[4]!.next_step = 'grade';
        s[5]!.next_step = 'weigh';
        s[6]!.next_step = 'weigh';
      }),
    );
    if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
    expect(bestPath(result.scenario.steps).stepIds).toEqual([
      'brief',
      'pick',
      'many',
      'order',
      'guess',
      'grade',
      'weigh',
      'bluf',
    ]);
  });
});

describe('the longest-option rule', () => {
  const longest = () =>
    changed((s) => {
      s[1]!.options = ['The right and by far the longest option', 'Short', 'Wrong'];
      s[0]!.options = ['Acknowledge the tasking now', 'No'];
    });

  it('warns an upload when the right option is the strictly longest in more than 40 % of choice steps', () => {
    const result = checkScenario(longest());
    expect(result.ok).toBe(true);
    expect(result.warnings.map(formatProblem)).toEqual([
      'steps: the correct option is the longest one in 2 of 2 choice steps (100 %, at most 40 % allowed), so always picking the longest option scores well; make a wrong option the longest in some of: brief, pick',
    ]);
  });

  it('refuses the same file for the built-in library', () => {
    const result = checkScenario(longest(), { origin: 'builtin' });
    expect(result.ok).toBe(false);
    expect(problemsOf(result)).toHaveLength(1);
  });

  it('does not count a tie for the longest', () => {
    const result = checkScenario(
      changed((s) => (s[1]!.options = ['Same length', 'Same lengtH', 'Wrong'])),
      { origin: 'builtin' },
    );
    expect(problemsOf(result)).toEqual([]);
  });
});
