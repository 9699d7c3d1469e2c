import { describe, expect, it } from 'vitest';
import { checkScenarioText } from './check-scenario';
import { controlCharacterProblems } from './control-characters';

describe('control characters in scenario text', () => {
  it('finds a NUL, an escape and a lone carriage return wherever they are, and names the field', () => {
    expect(
      controlCharacterProblems({
        name: 'a\u0000b',
        steps: [{ title: 'ok', options: [{ text: 'x\u001by' }] }, { description: 'line\rover' }],
      }),
    ).toEqual([
      {
        path: 'name',
        message: 'contains a NUL character; text may hold tabs and line breaks but no other control characters',
      },
      {
        path: 'steps[0].options[0].text',
        message:
          'contains a control character (U+001B); text may hold tabs and line breaks but no other control characters',
      },
      {
        path: 'steps[1].description',
        message:
          'contains a control character (U+000D); text may hold tabs and line breaks but no other control characters',
      },
    ]);
  });

  it('lets tabs, line feeds and Windows line ends through', () => {
    expect(controlCharacterProblems({ description: 'one\ttwo\nthree\r\nfour', n: 3, ok: true })).toEqual([]);
  });

  it('walks a deeply nested value without overflowing', () => {
    let deep: unknown = 'bottom\u0007';
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    expect(controlCharacterProblems(deep)).toHaveLength(1);
  });

  it('makes the checker refuse a scenario whose name holds a NUL written as a JSON escape', () => {
    const scenario = {
      name: 'a\u0000b',
      type: 'Phishing',
      difficulty: 1,
      description: 'A scenario.',
      steps: [
        {
          kind: 'choice',
          id: 'one',
          title: 'One',
          description: 'Pick.',
          options: [{ text: 'Right answer here' }, { text: 'Wrong' }],
          correct_option: 0,
        },
      ],
    };
    const result = checkScenarioText(JSON.stringify(scenario));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((problem) => problem.path)).toContain('name');
  });
});
