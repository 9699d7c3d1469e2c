import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkScenarioText } from './check-scenario';
import { everyKindScenario } from './every-kind.fixture';
import { checkGlyphs, isDrawn, undrawnCharacters } from './glyph-rules';
import type { ScenarioDefinition } from './scenario.schema';

const LIBRARY = join(import.meta.dirname, '../../../../content/scenarios');

describe('the shipped typefaces', () => {
  it('draw Latin, Greek and Cyrillic letters and the usual punctuation, but not emoji or most arrows', () => {
    for (const character of 'aZé€Ωж“”–…·') expect(isDrawn(character.codePointAt(0)!), character).toBe(true);
    expect(undrawnCharacters('📱 HIRING 📱 → ok')).toEqual(['📱', '→']);
  });
});

describe('the glyph rule', () => {
  it('names each text with a character the typefaces lack, and the character', () => {
    const scenario = everyKindScenario() as unknown as ScenarioDefinition;
    const problems = checkGlyphs({
      ...scenario,
      description: 'A post: 📱 HIRING',
    });
    expect(problems).toEqual([
      {
        path: 'description',
        message: expect.stringContaining('"📱" (U+1F4F1), which the app\'s typefaces cannot draw') as string,
      },
    ]);
    expect(checkGlyphs(scenario)).toEqual([]);
  });

  it('refuses such a character in a built-in file and warns an upload', () => {
    const text = readFileSync(join(LIBRARY, 'tutorial-first-case.yaml'), 'utf8').replace(
      /^name: .*$/m,
      'name: "Triage 🚨"',
    );
    const builtin = checkScenarioText(text, { origin: 'builtin' });
    expect(builtin.ok).toBe(false);
    if (!builtin.ok) expect(builtin.problems.map((problem) => problem.path)).toContain('name');
    const upload = checkScenarioText(text);
    expect(upload.ok).toBe(true);
    expect(upload.warnings.map((warning) => warning.path)).toContain('name');
  });
});

describe('the built-in library', () => {
  it.each(readdirSync(LIBRARY).filter((file) => file.endsWith('.yaml')))(
    '%s uses only characters the shipped typefaces draw',
    (file) => {
      const text = readFileSync(join(LIBRARY, file), 'utf8');
      const lines = text.split('\n').flatMap((line, index) => {
        const missing = undrawnCharacters(line);
        return missing.length > 0 ? [`line ${index + 1}: ${missing.join(' ')}`] : [];
      });
      expect(lines).toEqual([]);
    },
  );
});
