// `npm test`: type-check, lint (code, then the OpenAPI document), unit and API tests (SQLite, then PostgreSQL when TEST_DATABASE_URL is set),
// then the browser tests against the production build. Ends with one line: `N passed, N failed`, and says how long
// each part took.
//
// `npm test -- --only sqlite,postgres` runs some parts only (typecheck, lint, api-lint, sqlite, postgres, server-sqlite,
// browser; `server-sqlite` is the server's API suite alone on SQLite). CI runs every part on one Node and the parts
// that depend on the Node version on the others (.ci/run). With TEST_TOTALS_FILE set, the counts are also appended
// to that file as one `passed failed` line, for CI's closing total.
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
const durations = [];

const PARTS = ['typecheck', 'lint', 'api-lint', 'sqlite', 'server-sqlite', 'postgres', 'browser'];
const DEFAULT_PARTS = ['typecheck', 'lint', 'api-lint', 'sqlite', 'postgres', 'browser'];
const onlyIndex = process.argv.indexOf('--only');
const parts = onlyIndex >= 0 ? (process.argv[onlyIndex + 1] ?? '').split(',').filter(Boolean) : DEFAULT_PARTS;
const unknown = parts.filter((part) => !PARTS.includes(part));
if (unknown.length > 0 || parts.length === 0) {
  console.error(`Unknown part(s): ${unknown.join(', ') || '(none given)'}. Parts: ${PARTS.join(', ')}.`);
  process.exit(2);
}
const wanted = (part) => parts.includes(part);

/** Runs one part, timed; a part that fails is named at the end. */
function timed(name, work) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const ok = work();
  const seconds = Math.round((Date.now() - started) / 1000);
  durations.push({ name, seconds, ok });
  if (!ok) failedSteps.push(name);
  return ok;
}

function spawn(command, args, env = process.env) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status === 0;
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

/** A Vitest run whose JSON report is counted; a run that leaves no report counts as one failure. */
function vitestPart(name, projects, env) {
  const report = path.join(reports, `vitest-${name.replace(/\W+/g, '-')}.json`);
  return timed(name, () => {
    const ok = spawn(
      vitest,
      [
        'run',
        ...projects.flatMap((project) => ['--project', project]),
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ],
      env,
    );
    if (!countVitest(report)) totals.failed += 1;
    return ok;
  });
}

console.log(`Node ${process.version}; parts: ${parts.join(', ')}`);
if (wanted('typecheck')) timed('type-check', () => spawn('npm', ['run', '--silent', 'typecheck']));
if (wanted('lint')) timed('lint', () => spawn('npm', ['run', '--silent', 'lint']));
if (wanted('api-lint')) timed('OpenAPI lint', () => spawn('npm', ['run', '--silent', 'lint:api']));

if (wanted('sqlite')) vitestPart('unit and API tests (SQLite)', ['shared', 'server', 'web'], withoutPg);
if (wanted('server-sqlite')) vitestPart('API tests (SQLite)', ['server'], withoutPg);

if (wanted('postgres')) {
  if (process.env.TEST_DATABASE_URL) {
    vitestPart('API tests (PostgreSQL)', ['server'], process.env);
  } else if (ci) {
    console.error('\nTEST_DATABASE_URL is not set: with CI=true the PostgreSQL run may not be skipped.');
    failedSteps.push('API tests (PostgreSQL) missing');
    totals.failed += 1;
  } else {
    console.log('\n(TEST_DATABASE_URL is not set: the API suite ran on SQLite only.)');
  }
}

if (wanted('browser')) {
  const playwrightReport = path.join(reports, 'playwright.json');
  timed('build the web app', () => spawn('npm', ['run', '--silent', 'build']));
  timed('browser tests', () => {
    const ok = spawn(
      path.join(root, 'node_modules/.bin/playwright'),
      ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
      { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
    );
    if (!countPlaywright(playwrightReport)) totals.failed += 1;
    return ok;
  });
}

console.log(`\nDurations on Node ${process.version}:`);
for (const { name, seconds, ok } of durations) {
  console.log(`  ${ok ? 'ok    ' : 'FAILED'} ${String(seconds).padStart(5)} s  ${name}`);
}
if (process.env.TEST_TOTALS_FILE)
  fs.appendFileSync(process.env.TEST_TOTALS_FILE, `${totals.passed} ${totals.failed}\n`);
if (failedSteps.length > 0) console.error(`\nFailed: ${failedSteps.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length > 0 ? 1 : 0);
