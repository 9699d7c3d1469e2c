import type { ScenarioProblem } from './check-scenario';
import { SHIPPED_FONT_CODE_POINTS } from './font-coverage';
import type { ScenarioDefinition } from './scenario.schema';

// Every character a scenario shows must be one the shipped typefaces draw (Inter, JetBrains Mono: see
// scripts/font-coverage.mjs): anything else is left to whatever fonts the trainee's machine has, and on many it
// draws as an empty box ("📱 HIRING"). The checker calls this once per file; a built-in file is refused, an
// upload warned.

let covered: ReadonlyArray<readonly [number, number]> | null = null;

function coverage(): ReadonlyArray<readonly [number, number]> {
  return (covered ??= SHIPPED_FONT_CODE_POINTS.split(',').map((part) => {
    const [from, to] = part.split('-').map((hex) => parseInt(hex, 16)) as [number, number | undefined];
    return [from, to ?? from] as const;
  }));
}

/** Whether the shipped typefaces draw this code point (line breaks and tabs count as drawn). */
export function isDrawn(codePoint: number): boolean {
  if (codePoint === 0x0a || codePoint === 0x0d || codePoint === 0x09) return true;
  const ranges = coverage();
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [from, to] = ranges[middle]!;
    if (codePoint < from) high = middle - 1;
    else if (codePoint > to) low = middle + 1;
    else return true;
  }
  return false;
}

/** The distinct characters of a text the shipped typefaces cannot draw, in order of first use. */
export function undrawnCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const character of text) if (!isDrawn(character.codePointAt(0)!)) found.add(character);
  return [...found];
}

const describe = (character: string) =>
  `"${character}" (U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;

/** One problem per text that holds characters the shipped typefaces cannot draw. */
export function checkGlyphs(scenario: ScenarioDefinition): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      const missing = undrawnCharacters(value);
      if (missing.length > 0)
        problems.push({
          path,
          message:
            `uses ${missing.map(describe).join(', ')}, which the app's typefaces cannot draw (many screens show an ` +
            'empty box); write it in words instead, such as "[phone emoji]"',
        });
    } else if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
  };
  walk(scenario, '');
  return problems;
}
