// `npm run lint:api`: generates the OpenAPI document from the routes (no server, a throw-away SQLite file) and
// lints it with Redocly (recommended rules) and Spectral (spectral:oas). Any error or warning fails.
// Both linters run from node_modules and need no network.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-lint-api-'));
const document = path.join(dir, 'openapi.json');
// No telemetry and no update check: the lint runs the same offline.
const env = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
};

function run(command, args, options = {}) {
  return spawnSync(command, args, { cwd: root, env, encoding: 'utf8', ...options });
}

let failed = false;
try {
  const generated = run(bin('tsx'), ['apps/server/scripts/openapi.ts', document], { stdio: 'inherit' });
  if (generated.status !== 0) throw new Error('could not generate the OpenAPI document');

  const redocly = run(bin('redocly'), [
    'lint',
    document,
    '--config',
    'apps/server/openapi/redocly.yaml',
    '--format',
    'json',
  ]);
  const report = JSON.parse(redocly.stdout || '{}');
  const { errors = NaN, warnings = NaN } = report.totals ?? {};
  if (errors !== 0 || warnings !== 0) {
    failed = true;
    run(bin('redocly'), ['lint', document, '--config', 'apps/server/openapi/redocly.yaml', '--max-problems', '1000'], {
      stdio: 'inherit',
    });
  }
  console.log(`redocly lint (recommended): ${errors} errors, ${warnings} warnings`);

  const spectral = run(
    bin('spectral'),
    ['lint', document, '--ruleset', 'apps/server/openapi/spectral.yaml', '--fail-severity', 'hint'],
    {
      stdio: 'inherit',
    },
  );
  if (spectral.status !== 0) failed = true;
  console.log(`spectral lint (spectral:oas): ${spectral.status === 0 ? 'no problems' : 'problems above'}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  failed = true;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
