// The author's check: `npm run scenario:check -- [--builtin] <file...>` prints ✓ or ✗ per file, every problem
// found and every warning. --builtin holds the files to the library's rules (warnings become problems).
import { readFile } from 'node:fs/promises';
import { checkScenarioText, formatProblem, type ScenarioCheckOptions, type ScenarioProblem } from './check-scenario';

async function checkFile(
  file: string,
  options: ScenarioCheckOptions,
): Promise<{ problems: ScenarioProblem[]; warnings: ScenarioProblem[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problems: [{ path: '(file)', message: `cannot be read: ${reason}` }], warnings: [] };
  }
  const result = checkScenarioText(text, options);
  return { problems: result.ok ? [] : result.problems, warnings: result.warnings };
}

const args = process.argv.slice(2);
const options: ScenarioCheckOptions = { origin: args.includes('--builtin') ? 'builtin' : 'upload' };
const files = args.filter((arg) => arg !== '--builtin');
if (files.length === 0) {
  console.error('usage: npm run scenario:check -- [--builtin] <scenario.yaml...>');
  process.exit(2);
}

let failed = false;
for (const file of files) {
  const { problems, warnings } = await checkFile(file, options);
  if (problems.length > 0) failed = true;
  console.log(`${problems.length === 0 ? '✓' : '✗'} ${file}`);
  for (const problem of problems) console.log(`    ${formatProblem(problem)}`);
  for (const warning of warnings) console.log(`    warning: ${formatProblem(warning)}`);
}
process.exitCode = failed ? 1 : 0;
