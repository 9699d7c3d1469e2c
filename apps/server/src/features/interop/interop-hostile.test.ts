import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

const run = promisify(execFile);

// A hostile bundle at the 5 MB limit, over real HTTP: refused with its real problem, in bounded memory, while the
// server keeps answering. In a file of its own, so the process's peak memory is this test's.
describe('a 5 MB STIX bundle of repeated bad values', () => {
  let t: TestApp;
  let cookie: string;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await t.userWithSession('admin')).cookie;
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  it('answers 400 naming its over-long list, grows the server by under 100 MB, and the health route answers meanwhile', async () => {
    const head =
      '{"type":"bundle","id":"bundle--5d0092c5-5f74-4287-9642-33f4c354e56d","objects":[{"type":"indicator",' +
      '"spec_version":"2.1","id":"indicator--11111111-1111-4111-8111-111111111111",' +
      '"created":"2024-01-01T00:00:00.000Z","modified":"2024-01-01T00:00:00.000Z","pattern_type":"stix",' +
      '"pattern":"[ipv4-addr:value = \'198.51.100.7\']","valid_from":"2024-01-01T00:00:00Z","indicator_types":[';
    const tail = '7]}]}';
    const values = Math.floor((5 * 1024 * 1024 - 2048 - head.length - tail.length) / 2);
    const bundle = `${head}${'7,'.repeat(values)}${tail}`;
    expect(bundle.length).toBeLessThan(5 * 1024 * 1024);

    // The client is another process (curl), so this process's memory is the server's alone.
    const dir = mkdtempSync(join(tmpdir(), 'tradecraft-hostile-'));
    const file = join(dir, 'hostile.json');
    writeFileSync(file, bundle);
    const before = process.memoryUsage.rss();
    const importing = run('curl', [
      '-sS',
      '-H',
      `Origin: ${ORIGIN}`,
      '-H',
      `Cookie: ${SESSION_COOKIE}=${cookie}`,
      '-F',
      `file=@${file};type=application/json`,
      '-w',
      '\n%{http_code}',
      `${origin}/api/sim/import-stix`,
    ]);
    const health = fetch(`${origin}/api/health`);
    const [{ stdout }, healthy] = await Promise.all([importing, health]);
    rmSync(dir, { recursive: true, force: true });
    const [body, status] = [stdout.slice(0, stdout.lastIndexOf('\n')), stdout.slice(stdout.lastIndexOf('\n') + 1)];

    expect(healthy.status).toBe(200);
    expect(status).toBe('400');
    expect(JSON.parse(body)).toEqual({
      error: 'The file is not a valid STIX 2.1 bundle.',
      problems: [expect.stringMatching(/^The file holds a list of more than 20,000 items \(at byte [\d,]+\)/)],
      issues: [{ path: 'file', message: expect.stringMatching(/^The file holds a list of more than 20,000 items/) }],
    });
    const peak = process.resourceUsage().maxRSS * 1024;
    console.log('growth MB', (peak - before) / 1048576);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });
});
