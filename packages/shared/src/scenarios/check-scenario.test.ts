import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkScenario,
  checkScenarioText,
  deriveScenarioId,
  formatProblem,
  parseScenarioText,
  type ScenarioCheckResult,
} from './check-scenario';
import type * as z from 'zod';
import type { ChoiceStepSchema, ScenarioFile } from './scenario.schema';

/** A small valid scenario: alert -> scope -> contain -> report, every step answered correctly passes. */
function baseScenario(): ScenarioFile {
  return {
    id: 'invoice-phish',
    name: 'A strange invoice',
    type: 'Phishing',
    difficulty: 2,
    description: 'A nurse reports an invoice attachment that will not open.',
    sources: [{ title: 'CISA phishing guidance', url: 'https://www.cisa.gov/' }],
    steps: [
      {
        id: 'alert',
        title: 'A strange invoice',
        description: 'A nurse forwards an invoice she did not expect.',
        artifacts: [
          {
            kind: 'email',
            title: 'Forwarded message',
            content: 'From: billing@invoices.example\nSubject: Overdue invoice',
            indicators: [{ type: 'domain', value: 'invoices.example', context: 'sender domain' }],
          },
        ],
        hint: 'Who else received it?',
        mitre_attack: 'T1566.001',
        options: [
          { text: 'Pull the message from every mailbox and sandbox it', next_step: 'scope', feedback: 'Yes.' },
          'Forward it to the help desk',
        ],
        correct_option: 0,
      },
      {
        id: 'scope',
        title: 'How far did it spread?',
        description: 'The sandbox shows a loader calling out.',
        options: ['Search proxy logs for the callout domain', { text: 'Guess', next_step: null }],
        correct_option: 0,
      },
      {
        id: 'contain',
        title: 'Contain',
        description: 'Two hosts called out.',
        mitre_attack: 'T1071',
        options: ['Isolate both hosts', 'Wait and watch'],
        correct_option: 0,
      },
      {
        id: 'report',
        title: 'Report',
        description: 'Write it up.',
        options: ['Share indicators with the sector ISAC', 'Keep it quiet'],
        correct_option: 0,
      },
    ],
  };
}

function variant(change: (scenario: ScenarioFile) => void): ScenarioFile {
  const scenario = baseScenario();
  change(scenario);
  return scenario;
}

type ChoiceStepFile = z.input<typeof ChoiceStepSchema>;

/** A step of the base scenario (every one is a choice step). */
function step(scenario: ScenarioFile, index: number): ChoiceStepFile {
  const found = scenario.steps[index];
  if (!found) throw new Error(`the base scenario has no step ${index}`);
  return found as ChoiceStepFile;
}

function problemsOf(result: ScenarioCheckResult): string[] {
  return result.ok ? [] : result.problems.map(formatProblem);
}

describe('checkScenario', () => {
  it('accepts the base scenario and normalises plain-string options to objects', () => {
    const result = checkScenario(baseScenario());
    expect(problemsOf(result)).toEqual([]);
    if (!result.ok) return;
    const [alert, scope] = result.scenario.steps.map((each) => (each.kind === 'choice' ? each : undefined));
    expect(alert?.options[1]).toEqual({ text: 'Forward it to the help desk' });
    expect(alert?.options[1]).not.toHaveProperty('next_step');
    expect(scope?.options[1]).toEqual({ text: 'Guess', next_step: null });
    expect(scope?.options[1]).toHaveProperty('next_step', null);
  });

  it.each<[string, (scenario: ScenarioFile) => void, string]>([
    ['a missing field', (s) => Reflect.deleteProperty(step(s, 0), 'title'), 'steps[0].title: is required'],
    [
      'a field of the wrong kind',
      (s) => Reflect.set(s, 'difficulty', 'hard'),
      'difficulty: expected a number, found text ("hard")',
    ],
    [
      'an unknown field',
      (s) => Reflect.set(step(s, 1), 'hnit', 'Look closer'),
      'steps[1].hnit: unknown field; did you mean "hint"?',
    ],
    ['a repeated step id', (s) => (step(s, 2).id = 'scope'), 'steps[2].id: duplicate step id "scope"'],
    [
      'a next_step naming no step',
      (s) => (step(s, 0).options[0] = { text: 'Sandbox it', next_step: 'scop' }),
      'steps[0].options[0].next_step: no step with id "scop"',
    ],
    [
      'a correct_option out of range',
      (s) => (step(s, 1).correct_option = 4),
      'steps[1].correct_option: 4 is out of range (2 options)',
    ],
    [
      'a technique id that is not active ATT&CK',
      (s) => (step(s, 0).mitre_attack = 'T9999'),
      'steps[0].mitre_attack: "T9999" is not an active ATT&CK Enterprise technique',
    ],
    [
      'an unreachable step',
      (s) => {
        step(s, 2).options = [
          { text: 'Isolate both hosts', next_step: 'report' },
          { text: 'Wait and watch', next_step: 'report' },
        ];
        s.steps.splice(3, 0, {
          id: 'orphan',
          title: 'Nobody comes here',
          description: 'No option leads here.',
          options: ['One', 'Two'],
          correct_option: 0,
        });
      },
      'steps[3]: step "orphan" can never be reached from the first step',
    ],
    [
      'a trap loop',
      (s) => {
        step(s, 0).options[1] = { text: 'Chase the attachment hash', next_step: 'rabbit-hole' };
        step(s, 2).options = [
          { text: 'Isolate both hosts', next_step: 'report' },
          { text: 'Wait and watch', next_step: 'report' },
        ];
        s.steps.splice(3, 0, {
          id: 'rabbit-hole',
          title: 'Down the rabbit hole',
          description: 'Every lead leads back here.',
          options: [
            { text: 'Dig deeper', next_step: 'rabbit-hole' },
            { text: 'Keep digging', next_step: null },
          ],
          correct_option: 0,
        });
      },
      'steps[3]: a trainee at step "rabbit-hole" can never finish: every choice from here loops back or retries',
    ],
    [
      'Retry on the correct option',
      (s) => (step(s, 1).correct_option = 1),
      'steps[1].options[1].next_step: the correct option cannot be null (Retry), or a trainee who answers correctly stays stuck on this step',
    ],
    [
      'a correct path that loops',
      (s) => (step(s, 1).options = [{ text: 'Search proxy logs', next_step: 'alert' }, 'Guess']),
      'steps[1].correct_option: answering every step correctly goes round in a loop and never finishes (alert → scope → alert)',
    ],
    [
      'a best path with no scored step',
      (s) => {
        step(s, 0).options[0] = { text: 'Skip to the report', next_step: 'report' };
        step(s, 0).scored = false;
        step(s, 3).scored = false;
      },
      'steps: the best path has no scored step (every step on it says `scored: false`), so a run cannot be scored',
    ],
  ])('refuses %s', (_rule, change, expected) => {
    expect(problemsOf(checkScenario(variant(change)))).toEqual([expected]);
  });

  it('reports every shape problem at once', () => {
    const scenario = variant((s) => {
      Reflect.deleteProperty(s, 'description');
      Reflect.set(step(s, 0), 'correctOption', 0);
      Reflect.set(step(s, 3), 'options', ['Only one']);
    });
    expect(problemsOf(checkScenario(scenario))).toEqual([
      'description: is required',
      'steps[0].correctOption: unknown field; did you mean "correct_option"?',
      'steps[3].options: needs at least 2 options, found 1',
    ]);
  });

  it('reports every rule problem at once', () => {
    const scenario = variant((s) => {
      step(s, 3).id = 'alert';
      step(s, 1).options[1] = { text: 'Guess', next_step: 'nowhere' };
      step(s, 2).mitre_attack = 't1071';
    });
    expect(problemsOf(checkScenario(scenario))).toEqual([
      'steps[1].options[1].next_step: no step with id "nowhere"',
      'steps[2].mitre_attack: write the technique id as "T1071", not "t1071"',
      'steps[3].id: duplicate step id "alert"',
    ]);
  });

  it('explains options that are neither text nor a mapping, or too long', () => {
    const scenario = variant((s) => {
      Reflect.set(step(s, 0).options, 1, 5);
      step(s, 1).options[0] = 'x'.repeat(501);
    });
    expect(problemsOf(checkScenario(scenario))).toEqual([
      'steps[0].options[1]: expected text or a mapping of fields, found the number 5',
      'steps[1].options[0]: is too long: 501 characters, at most 500 allowed',
    ]);
  });

  it('says a whole number is needed when a number has a fraction', () => {
    expect(problemsOf(checkScenario(variant((s) => (s.difficulty = 2.5))))).toEqual([
      'difficulty: expected a whole number, found the number 2.5',
    ]);
  });

  it('refuses a top level that is not a mapping', () => {
    expect(problemsOf(checkScenario(['a']))).toEqual(['(file): expected a mapping of fields, found a list']);
  });

  it('accepts a scenario whose id is left out, and any short type', () => {
    const scenario = variant((s) => {
      delete s.id;
      s.type = 'Supply Chain';
    });
    expect(problemsOf(checkScenario(scenario))).toEqual([]);
  });
});

describe('parseScenarioText', () => {
  it('accepts JSON', () => {
    const result = checkScenarioText(JSON.stringify(baseScenario(), null, '\t'));
    expect(problemsOf(result)).toEqual([]);
  });

  it('reads YAML with plain-string options, keeping absent and null next_step apart', () => {
    const result = checkScenarioText(`
name: Two steps
type: Insider Threat
difficulty: 1
description: A short one.
steps:
  - id: first
    title: First
    description: Pick one.
    options:
      - Right
      - text: Wrong
        next_step: null
    correct_option: 0
  - id: second
    title: Second
    description: Pick again.
    options: [Right, Wrong]
    correct_option: 0
`);
    expect(problemsOf(result)).toEqual([]);
    if (!result.ok) return;
    const [first, second] = result.scenario.steps;
    expect(first?.kind === 'choice' && first.options).toEqual([{ text: 'Right' }, { text: 'Wrong', next_step: null }]);
    expect(second?.kind === 'choice' && second.options).toEqual([{ text: 'Right' }, { text: 'Wrong' }]);
  });

  it('refuses an alias bomb quickly', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const name of 'bcdefghi') {
      const previous = String.fromCharCode(name.charCodeAt(0) - 1);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const started = performance.now();
    const result = parseScenarioText(levels.join('\n'));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result).toEqual({
      ok: false,
      problems: [{ path: '(file)', message: 'uses aliases (*name) too many times; write the values out instead' }],
      warnings: [],
    });
  });

  it('refuses tags outside the core schema', () => {
    const result = parseScenarioText(
      'name: !!js/function "function () {}"\ntype: !foo Phishing\ndifficulty: !!int 2\n',
    );
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([
      'line 1, column 7: the tag !!js/function is not allowed; a scenario file holds only plain text, numbers, true/false, lists and mappings',
      'line 2, column 7: the tag !foo is not allowed; a scenario file holds only plain text, numbers, true/false, lists and mappings',
    ]);
  });

  it('refuses YAML 1.1 tags the core schema does not have', () => {
    const result = parseScenarioText('name: !!binary aGk=\n');
    expect(result.ok).toBe(false);
  });

  it('refuses duplicate keys, with their line and column', () => {
    const result = parseScenarioText('name: One\nsteps:\n  - id: a\n    title: First\n    title: Second\n');
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([
      'line 5, column 5: the field "title" appears twice in the same mapping; keep one',
    ]);
  });

  it('refuses more than one document', () => {
    const result = parseScenarioText('name: One\n---\nname: Two\n');
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([
      '(file): holds 2 YAML documents (separated by ---); put exactly one scenario in each file',
    ]);
  });

  it('refuses an empty file and a top level that is not a mapping', () => {
    for (const empty of ['', '# only a comment\n', '---\n']) {
      expect(parseScenarioText(empty)).toEqual({
        ok: false,
        problems: [{ path: '(file)', message: 'the file is empty' }],
        warnings: [],
      });
    }
    const list = parseScenarioText('- one\n- two\n');
    expect(list.ok ? [] : list.problems.map(formatProblem)).toEqual([
      '(file): must hold one scenario as a mapping of fields (id, name, type, ..., steps), not a list',
    ]);
  });

  it('reports syntax errors with their line and column', () => {
    const result = parseScenarioText('name: "unterminated\ntype: Phishing\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.path).toMatch(/^line \d+, column \d+$/);
  });
});

describe('deriveScenarioId', () => {
  it('makes a lower-case slug of the name', () => {
    expect(deriveScenarioId('LockBit 3.0 at a Regional Hospital!')).toBe('lockbit-3-0-at-a-regional-hospital');
    expect(deriveScenarioId('  Opération Crème Brûlée  ')).toBe('operation-creme-brulee');
  });

  it('keeps the id between 3 and 64 characters', () => {
    expect(deriveScenarioId('AI')).toBe('ai-scenario');
    expect(deriveScenarioId('!!!')).toBe('scenario');
    const long = deriveScenarioId(`${'word '.repeat(30)}end`);
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(/^[a-z0-9-]{3,64}$/);
    expect(long.endsWith('-')).toBe(false);
  });
});

describe('the built-in scenario library', () => {
  const folder = new URL('../../../../content/scenarios/', import.meta.url);
  const files = readdirSync(folder).filter((file) => /\.ya?ml$/.test(file));

  it('holds at least one scenario', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s passes the checker', (file) => {
    const result = checkScenarioText(readFileSync(new URL(file, folder), 'utf8'));
    expect(problemsOf(result)).toEqual([]);
  });

  it('gives every scenario its own id', () => {
    const ids = files.flatMap((file) => {
      const result = checkScenarioText(readFileSync(new URL(file, folder), 'utf8'));
      return result.ok ? [result.scenario.id ?? deriveScenarioId(result.scenario.name)] : [];
    });
    expect(new Set(ids).size).toBe(ids.length);
  });
});
