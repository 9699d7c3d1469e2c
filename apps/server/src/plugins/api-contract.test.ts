import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import Papa from 'papaparse';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, PASSWORD, type TestApp } from '../../test/helper';
import { SESSION_COOKIE } from './sessions.repository';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const clientSource = fileURLToPath(new URL('../../test/contract/client.ts', import.meta.url));
// A scenario of choice steps only: the client script answers by option (the other step kinds have their own tests).
const choiceScenario = fileURLToPath(new URL('../features/scenarios/fixtures/invoice-phish.yaml', import.meta.url));

let t: TestApp;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  const adminCookie = (await t.userWithSession('admin')).cookie;
  // Published the way a team's CI would: through the upload route.
  const boundary = 'contractboundary';
  const upload = await t.app.inject({
    method: 'POST',
    url: '/api/sim/upload-scenario',
    headers: {
      origin: ORIGIN,
      cookie: `${SESSION_COOKIE}=${adminCookie}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload:
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="invoice-phish.yaml"\r\nContent-Type: application/yaml\r\n\r\n` +
      `${fs.readFileSync(choiceScenario, 'utf8')}\r\n--${boundary}--\r\n`,
  });
  expect(upload.statusCode).toBe(201);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-contract-'));
  const document = (await t.request({ method: 'GET', url: '/api/docs/json', cookie: adminCookie })).json();
  fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(document)));
  fs.copyFileSync(clientSource, path.join(dir, 'client.ts'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a client generated from the OpenAPI document', () => {
  it('type-checks against the generated types', { timeout: 60_000 }, () => {
    const program = ts.createProgram([path.join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ['node'],
      typeRoots: [path.join(root, 'node_modules/@types')],
      skipLibCheck: true,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it(
    'signs in, lists scenarios, plays a run and downloads the progress CSV from a live server',
    { timeout: 60_000 },
    async () => {
      const admin = await t.createUser({ role: 'admin' });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const address = t.app.server.address() as { port: number };
      const { stdout } = await promisify(execFile)(
        path.join(root, 'node_modules/.bin/tsx'),
        [path.join(dir, 'client.ts'), `http://127.0.0.1:${address.port}`, admin.email, PASSWORD],
        { cwd: dir, timeout: 30_000 },
      );
      const seen = JSON.parse(stdout) as {
        signedInAs: string;
        answers: number;
        status: string;
        scenario: string;
        csv: string;
      };
      expect(seen.signedInAs).toBe(admin.email);
      expect(seen.answers).toBeGreaterThan(0);
      expect(seen.status).toBe('completed');
      const rows = Papa.parse<Record<string, string>>(seen.csv.trim(), { header: true }).data;
      expect(rows).toEqual([
        expect.objectContaining({ User: admin.email, Training: seen.scenario, Status: 'Completed' }),
      ]);
    },
  );
});
