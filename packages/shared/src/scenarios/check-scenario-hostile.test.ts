import { describe, expect, it } from 'vitest';
import { checkScenarioText } from './check-scenario';

// Found by the hostile-files campaign (bench/): such files were refused with "Maximum call stack size exceeded".
describe('a scenario file nested thousands of levels deep', () => {
  it.each([
    ['JSON', '['.repeat(50_000) + ']'.repeat(50_000)],
    ['YAML flow', `name: ${'['.repeat(50_000)}${']'.repeat(50_000)}`],
  ])('is refused saying it nests too deeply (%s)', (_kind, text) => {
    const result = checkScenarioText(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.map((problem) => problem.message)).toContain(
        'nests lists or mappings too deeply to be read; a scenario needs only a few levels',
      );
    }
  });
});
