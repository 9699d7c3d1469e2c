// The author's check: `npm run scenario:check -- <file...>` prints ✓ or ✗ per file and every problem found.
import { readFile } from 'node:fs/promises';
import { checkScenarioText, formatProblem, type ScenarioProblem } from './check-scenario';

async function problemsInFile(file: string): Promise<ScenarioProblem[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [{ path: '(file)', message: `cannot be read: ${reason}` }];
  }
  const result = checkScenarioText(text);
  return result.ok ? [] : result.problems;
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npm run scenario:check -- <scenario.yaml...>');
  process.exit(2);
}

let failed = false;
for (const file of files) {
  const problems = await problemsInFile(file);
  if (problems.length === 0) {
    console.log(`✓ ${file}`);
    continue;
  }
  failed = true;
  console.log(`✗ ${file}`);
  for (const problem of problems) console.log(`    ${formatProblem(problem)}`);
}
process.exitCode = failed ? 1 : 0;
