// `npm test`: type-check, lint (code, then the OpenAPI document), unit and API tests (SQLite, then PostgreSQL when TEST_DATABASE_URL is set),
// then the browser tests against the production build. Ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-test-'));
const totals = { passed: 0, failed: 0 };
const failedSteps = [];

function run(name, command, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failedSteps.push(name);
  return result.status === 0;
}

function countVitest(file) {
  if (!fs.existsSync(file)) return false;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed +=
    report.numFailedTests +
    (report.numTotalTests -
      report.numPassedTests -
      report.numFailedTests -
      (report.numPendingTests ?? 0) -
      (report.numTodoTests ?? 0));
  if ((report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) > 0) {
    console.error(`${report.numPendingTests + report.numTodoTests} test(s) skipped: a skipped test is a failure here.`);
    totals.failed += report.numPendingTests + report.numTodoTests;
    failedSteps.push('skipped tests');
  }
  return true;
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return false;
  const { stats } = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected + stats.skipped;
  if (stats.skipped > 0) failedSteps.push('skipped browser tests');
  return true;
}

const vitest = path.join(root, 'node_modules/.bin/vitest');
const withoutPg = { ...process.env };
delete withoutPg.TEST_DATABASE_URL;

run('type-check', 'npm', ['run', '--silent', 'typecheck']);
run('lint', 'npm', ['run', '--silent', 'lint']);
run('OpenAPI lint', 'npm', ['run', '--silent', 'lint:api']);

const sqliteReport = path.join(reports, 'vitest-sqlite.json');
console.log('\n=== unit and API tests (SQLite) ===');
const sqlite = spawnSync(
  vitest,
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${sqliteReport}`],
  {
    cwd: root,
    stdio: 'inherit',
    env: withoutPg,
  },
);
if (sqlite.status !== 0) failedSteps.push('unit and API tests (SQLite)');
if (!countVitest(sqliteReport)) totals.failed += 1;

if (process.env.TEST_DATABASE_URL) {
  const pgReport = path.join(reports, 'vitest-postgres.json');
  run('API tests (PostgreSQL)', vitest, [
    'run',
    '--project',
    'server',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${pgReport}`,
  ]);
  if (!countVitest(pgReport)) totals.failed += 1;
} else if (ci) {
  console.error('\nTEST_DATABASE_URL is not set: with CI=true the PostgreSQL run may not be skipped.');
  failedSteps.push('API tests (PostgreSQL) missing');
  totals.failed += 1;
} else {
  console.log('\n(TEST_DATABASE_URL is not set: the API suite ran on SQLite only.)');
}

const playwrightReport = path.join(reports, 'playwright.json');
run('build the web app', 'npm', ['run', '--silent', 'build']);
run(
  'browser tests',
  path.join(root, 'node_modules/.bin/playwright'),
  ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
  {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
  },
);
if (!countPlaywright(playwrightReport)) totals.failed += 1;

if (failedSteps.length > 0) console.error(`\nFailed: ${failedSteps.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length > 0 ? 1 : 0);
