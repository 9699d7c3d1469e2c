import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

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

  it('answers 400 with its first problem, grows the server by under 100 MB, and the health route answers meanwhile', async () => {
    const head =
      '{"type":"bundle","id":"bundle--5d0092c5-5f74-4287-9642-33f4c354e56d","objects":[{"type":"indicator",' +
      '"spec_version":"2.1","id":"indicator--11111111-1111-4111-8111-111111111111",' +
      '"created":"2024-01-01T00:00:00.000Z","modified":"2024-01-01T00:00:00.000Z","pattern_type":"stix",' +
      '"pattern":"[ipv4-addr:value = \'198.51.100.7\']","valid_from":"2024-01-01T00:00:00Z","indicator_types":[';
    const tail = '7]}]}';
    const values = Math.floor((5 * 1024 * 1024 - 2048 - head.length - tail.length) / 2);
    const bundle = `${head}${'7,'.repeat(values)}${tail}`;
    expect(bundle.length).toBeLessThan(5 * 1024 * 1024);

    const form = new FormData();
    form.append('file', new Blob([bundle], { type: 'application/json' }), 'hostile.json');
    const before = process.memoryUsage.rss();
    const headers = { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${cookie}` };
    const importing = fetch(`${origin}/api/sim/import-stix`, { method: 'POST', headers, body: form });
    const health = fetch(`${origin}/api/health`);
    const [response, healthy] = await Promise.all([importing, health]);

    expect(healthy.status).toBe(200);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'The file is not a valid STIX 2.1 bundle.',
      problems: ['objects[0] (indicator--11111111-1111-4111-8111-111111111111): /indicator_types/0 must be string'],
    });
    const peak = process.resourceUsage().maxRSS * 1024;
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });
});
