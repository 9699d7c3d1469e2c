import { sql } from 'kysely';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUDIT_EXPORT_MESSAGES, type AuditPage } from '@tradecraft/shared';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['userWithSession']>>;

const at = (date: string, time = '12:00:00') => `${date}T${time}.000Z`;

const insertAudit = (
  rows: { actor: string | null; action: string; details?: string | null; screen?: string | null; at: string }[],
) =>
  t.db
    .insertInto('audit_log')
    .values(
      rows.map((row) => ({
        actor: row.actor,
        action: row.action,
        details: row.details ?? null,
        screen: row.screen ?? null,
        at: row.at,
      })),
    )
    .execute();

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.userWithSession('admin', { email: 'boss@example.com' });
});
afterEach(() => t.close());

const logs = async (query: string) => {
  const response = await t.request({ method: 'GET', url: `/api/audit/logs?${query}`, cookie: admin.cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AuditPage;
};
const actions = (page: AuditPage) => page.items.map((item) => item.action);

describe('GET /api/audit/logs', () => {
  beforeEach(async () => {
    await insertAudit([
      {
        actor: 'Boss@Example.com',
        action: 'approve user',
        details: 'Approved a@x.io as student',
        screen: 'Pending Approvals',
        at: at('2026-03-01'),
      },
      {
        actor: 'other@example.com',
        action: 'edit user',
        details: 'role: student → admin',
        screen: 'Manage Users',
        at: at('2026-03-02', '00:00:00'),
      },
      { actor: null, action: 'system start', details: null, screen: null, at: at('2026-03-02', '23:59:59') },
      {
        actor: 'boss@example.com',
        action: 'delete scenario',
        details: 'Deleted 100%_legit',
        screen: 'Scenario Configurator',
        at: at('2026-03-03'),
      },
    ]);
  });

  it('lists newest first with empty actor, details and screen as null', async () => {
    const page = await logs('');
    expect(actions(page)).toEqual(['delete scenario', 'system start', 'edit user', 'approve user']);
    expect(page.total).toBe(4);
    expect(page.items[1]).toEqual({
      id: expect.any(Number),
      actor: null,
      action: 'system start',
      details: null,
      screen: null,
      timestamp: at('2026-03-02', '23:59:59'),
    });
  });

  it('filters actor, action, details and screen by case-insensitive contains, % and _ literal', async () => {
    expect(actions(await logs('actor=BOSS@'))).toEqual(['delete scenario', 'approve user']);
    expect(actions(await logs('action=USER'))).toEqual(['edit user', 'approve user']);
    expect(actions(await logs('details=STUDENT'))).toEqual(['edit user', 'approve user']);
    expect(actions(await logs('screen=manage'))).toEqual(['edit user']);
    expect(actions(await logs(`details=${encodeURIComponent('0%_')}`))).toEqual(['delete scenario']);
    expect(actions(await logs(`details=${encodeURIComponent('_')}`))).toEqual(['delete scenario']);
    expect(actions(await logs('actor=boss&screen=pending'))).toEqual(['approve user']);
  });

  it('compares start and end dates with the timestamp, whole days included', async () => {
    expect(actions(await logs('start_date=2026-03-02&end_date=2026-03-02'))).toEqual(['system start', 'edit user']);
    expect(actions(await logs('start_date=2026-03-02'))).toEqual(['delete scenario', 'system start', 'edit user']);
    expect(actions(await logs('end_date=2026-03-01'))).toEqual(['approve user']);
    // In Paris (UTC+1 in March), 2026-03-02 runs from 23:00 UTC on the 1st to 23:00 UTC on the 2nd.
    expect(actions(await logs('start_date=2026-03-02&end_date=2026-03-02&tz=Europe/Paris'))).toEqual(['edit user']);
  });

  it("takes whole days in the admin's time zone across a daylight-saving change, and refuses an unknown zone", async () => {
    await insertAudit([
      { actor: 'boss@example.com', action: 'first hour of the 29th in Paris', at: at('2026-03-28', '23:30:00') },
      { actor: 'boss@example.com', action: 'last hour of the 29th in Paris', at: at('2026-03-29', '21:30:00') },
      { actor: 'boss@example.com', action: 'first hour of the 30th in Paris', at: at('2026-03-29', '22:30:00') },
    ]);
    // 29 March 2026 has 23 hours in Paris (UTC+1 until 01:00 UTC, then UTC+2): one fixed offset gets one end wrong.
    expect(actions(await logs('start_date=2026-03-29&end_date=2026-03-29&tz=Europe/Paris'))).toEqual([
      'last hour of the 29th in Paris',
      'first hour of the 29th in Paris',
    ]);
    for (const tz of ['-60', 'Mars/Olympus_Mons', '']) {
      const response = await t.request({
        method: 'GET',
        url: `/api/audit/logs?start_date=2026-03-29&tz=${tz}`,
        cookie: admin.cookie,
      });
      expect(response.statusCode, tz).toBe(400);
      expect(response.json().issues, tz).toEqual([expect.objectContaining({ path: 'querystring.tz' })]);
    }
  });

  it('sorts by each column both ways, empty values first going up', async () => {
    expect(actions(await logs('sort=actor&dir=asc'))[0]).toBe('system start');
    expect((await logs('sort=actor&dir=desc')).items.map((item) => item.actor)).toEqual([
      'other@example.com',
      'boss@example.com',
      'Boss@Example.com',
      null,
    ]);
    expect(actions(await logs('sort=action&dir=asc'))).toEqual([
      'approve user',
      'delete scenario',
      'edit user',
      'system start',
    ]);
    expect(actions(await logs('sort=details&dir=desc'))[0]).toBe('edit user');
    expect(actions(await logs('sort=screen&dir=asc'))).toEqual([
      'system start',
      'edit user',
      'approve user',
      'delete scenario',
    ]);
    expect(actions(await logs('sort=timestamp&dir=asc'))[0]).toBe('approve user');
  });

  it('pages 10 at a time and reports the total', async () => {
    await insertAudit(
      Array.from({ length: 21 }, (_, index) => ({
        actor: 'bulk@example.com',
        action: `bulk ${index}`,
        at: at('2026-04-01'),
      })),
    );
    const third = await logs('actor=bulk&page=3');
    expect(third).toMatchObject({ total: 21, totalIsLowerBound: false, page: 3, pageSize: 10 });
    expect(third.items).toHaveLength(1);
  });

  it('counts a long log only as far as the pager needs: "1,000+", growing as the pages go deeper', async () => {
    for (let batch = 0; batch < 3; batch++)
      await insertAudit(
        Array.from({ length: 400 }, (_, index) => ({
          actor: 'bulk@example.com',
          action: `bulk ${batch * 400 + index}`,
          at: at('2026-04-01'),
        })),
      );
    expect(await logs('actor=bulk')).toMatchObject({ total: 1000, totalIsLowerBound: true });
    // Page 96 of 10 counts past the next five pages (1,010 rows), still short of all 1,200.
    expect(await logs('actor=bulk&page=96')).toMatchObject({ total: 1010, totalIsLowerBound: true });
    expect(await logs('actor=bulk&page=100&pageSize=100')).toMatchObject({ total: 1200, totalIsLowerBound: false });
  });

  it('sorts and pages a search the same whether its matches are few (collected, then sorted) or many (walked)', async () => {
    // 1,100 entries by one actor, each hour a day back; every 100th mentions "needle".
    const bulk = Array.from({ length: 1100 }, (_, index) => ({
      actor: 'bulk@example.com',
      action: `bulk ${String(index).padStart(4, '0')}`,
      details: index % 100 === 7 ? `found the NEEDLE ${index}` : `hay ${index}`,
      screen: `screen ${index % 7}`,
      at: new Date(Date.UTC(2026, 3, 1) - index * 3_600_000).toISOString(),
    }));
    for (let start = 0; start < bulk.length; start += 500) await insertAudit(bulk.slice(start, start + 500));
    const expected = (rows: typeof bulk, key: (row: (typeof bulk)[number]) => string, dir: 1 | -1) =>
      [...rows]
        .sort((a, b) => dir * (key(a).localeCompare(key(b)) || a.at.localeCompare(b.at)))
        .map((row) => row.action);

    const needles = bulk.filter((row) => row.details.includes('NEEDLE'));
    expect(needles).toHaveLength(11);
    const few = await logs('details=needle&sort=screen&dir=desc&page=2&pageSize=5');
    expect(few).toMatchObject({ total: 11, totalIsLowerBound: false });
    expect(actions(few)).toEqual(expected(needles, (row) => row.screen, -1).slice(5, 10));
    expect(actions(await logs('details=needle&sort=timestamp&dir=asc&pageSize=5'))).toEqual(
      expected(needles, () => '', 1).slice(0, 5),
    );

    // A common text with a rare one: their matches intersected.
    const both = await logs('actor=BULK@&details=needle&sort=timestamp&dir=desc');
    expect(both).toMatchObject({ total: 11, totalIsLowerBound: false });
    expect(actions(both)).toEqual(expected(needles, () => '', -1).slice(0, 10));

    const many = await logs('actor=bulk&sort=action&dir=desc&page=3');
    expect(many).toMatchObject({ total: 1000, totalIsLowerBound: true });
    expect(actions(many)).toEqual(expected(bulk, (row) => row.action, -1).slice(20, 30));
    // The last page counts every match (1,100, past the 1,000 of a first page) and still walks.
    const last = await logs('actor=bulk&sort=timestamp&dir=asc&page=110');
    expect(last).toMatchObject({ total: 1100, totalIsLowerBound: false });
    expect(actions(last)).toEqual(expected(bulk, () => '', 1).slice(1090, 1100));
  });

  it('finds a page of a text more than a thousand entries hold when they all lie under ten thousand newer ones', async () => {
    const hour = 3_600_000;
    const start = Date.UTC(2025, 0, 1);
    const old = Array.from({ length: 1100 }, (_, index) => ({
      actor: 'archive@example.com',
      action: `old ${String(index).padStart(4, '0')}`,
      details: `Imported LEGACY-CASE ${index}`,
      at: new Date(start + index * hour).toISOString(),
    }));
    const newer = Array.from({ length: 10_500 }, (_, index) => ({
      actor: 'busy@example.com',
      action: 'new entry',
      details: `routine ${index}`,
      at: new Date(start + (2000 + index) * hour).toISOString(),
    }));
    const rows = [...old, ...newer];
    for (let from = 0; from < rows.length; from += 1000) await insertAudit(rows.slice(from, from + 1000));

    const newestOld = await logs('details=legacy-case&sort=timestamp&dir=desc&page=2');
    expect(newestOld).toMatchObject({ total: 1000, totalIsLowerBound: true });
    expect(actions(newestOld)).toEqual(
      old
        .map((row) => row.action)
        .reverse()
        .slice(10, 20),
    );
  });

  it('finds a page of a common text spread thinly (one entry in 120), more entries than the 1,000 counted', async () => {
    // 121,200 entries at one time, newest last (the order is then by key); every 120th, 1,010 in all, holds the
    // text: past the 1,000 counted, so the page is walked, and too thin for the first walk to find all of it.
    const rows = 121_200;
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${rows - 1})
      insert into audit_log (actor, action, details, screen, at)
      select 'thin@example.com', 'thin ' || i, case when i % 120 = 7 then 'a THIN spread ' || i else 'chaff ' || i end,
        'Audit Log', '2030-01-01T00:00:00.000Z'
      from n`.execute(t.db);
    const matching = Array.from({ length: rows }, (_, i) => i)
      .filter((i) => i % 120 === 7)
      .reverse()
      .map((i) => `thin ${i}`);
    expect(matching).toHaveLength(1010);

    const first = await logs('details=thin%20spread&sort=timestamp&dir=desc');
    expect(first).toMatchObject({ total: 1000, totalIsLowerBound: true });
    expect(actions(first)).toEqual(matching.slice(0, 10));
    expect(actions(await logs('details=thin%20spread&sort=timestamp&dir=desc&page=2'))).toEqual(matching.slice(10, 20));
  });

  it('sorts a search by time however the entries were written: one written with an earlier time lands in its place', async () => {
    // Sixty entries an hour apart, one backdated between the 5th and 6th, then sixty more (all hold "marker").
    const hour = (n: number) => new Date(Date.UTC(2027, 0, 1) + n * 3_600_000).toISOString();
    const entry = (n: number, label: string) => ({
      actor: 'clock@example.com',
      action: label,
      details: `marker ${label}`,
      at: hour(n),
    });
    const first = Array.from({ length: 60 }, (_, n) => entry(n, `in order ${n}`));
    const backdated = { ...entry(4, 'backdated'), at: new Date(Date.parse(hour(4)) + 60_000).toISOString() };
    const later = Array.from({ length: 60 }, (_, n) => entry(60 + n, `in order ${60 + n}`));
    await insertAudit(first);
    await insertAudit([backdated]);
    await insertAudit(later);
    const byTime = [...first, backdated, ...later].sort((a, b) => a.at.localeCompare(b.at)).map((row) => row.action);
    expect(byTime.indexOf('backdated')).toBe(5);

    const newest = [...byTime].reverse();
    for (const page of [1, 2, 3])
      expect(
        actions(await logs(`details=marker&sort=timestamp&dir=desc&pageSize=50&page=${page}`)),
        `page ${page}`,
      ).toEqual(newest.slice((page - 1) * 50, page * 50));
    expect(actions(await logs('details=marker&sort=timestamp&dir=asc&pageSize=50'))).toEqual(byTime.slice(0, 50));
  });

  it('is for admins only', async () => {
    const student = await t.userWithSession('student');
    expect((await t.request({ method: 'GET', url: '/api/audit/logs', cookie: student.cookie })).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: '/api/audit/export?start_date=2026-01-01&end_date=2026-01-02' }))
        .statusCode,
    ).toBe(401);
  });
});

describe('GET /api/audit/export', () => {
  const download = (query: string) =>
    t.request({ method: 'GET', url: `/api/audit/export?${query}`, cookie: admin.cookie });

  it('needs both dates, in order', async () => {
    for (const query of ['', 'start_date=2026-03-01', 'end_date=2026-03-01', 'start_date=&end_date=2026-03-01']) {
      const response = await download(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error).toBe(AUDIT_EXPORT_MESSAGES.datesRequired);
    }
    const reversed = await download('start_date=2026-03-02&end_date=2026-03-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error).toBe(AUDIT_EXPORT_MESSAGES.endBeforeStart);
    expect((await download('start_date=March&end_date=2026-03-01')).statusCode).toBe(400);
  });

  it('saves audit_logs.xlsx: a header row, one row per entry in the range, dates as dates, formulas neutralised', async () => {
    await insertAudit([
      { actor: 'before@example.com', action: 'edit user', at: at('2026-02-28', '23:59:59') },
      {
        actor: 'boss@example.com',
        action: 'approve user',
        details: 'Approved a@x.io',
        screen: 'Pending Approvals',
        at: at('2026-03-01', '00:00:00'),
      },
      {
        actor: '=cmd|" /C calc"!A0',
        action: '+edit',
        details: '@SUM(1+1)',
        screen: '-Manage',
        at: at('2026-03-02', '08:30:00'),
      },
      { actor: null, action: 'system start', at: at('2026-03-02', '23:59:59') },
      { actor: 'after@example.com', action: 'edit user', at: at('2026-03-03', '00:00:00') },
    ]);
    const response = await download('start_date=2026-03-01&end_date=2026-03-02');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit_logs.xlsx"');
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Actor', 'Action', 'Details', 'Screen', 'Timestamp (UTC)']);
    expect(rows.slice(1).map((row) => row.slice(0, 4))).toEqual([
      ['boss@example.com', 'approve user', 'Approved a@x.io', 'Pending Approvals'],
      [`'=cmd|" /C calc"!A0`, "'+edit", "'@SUM(1+1)", "'-Manage"],
      [undefined, 'system start', undefined, undefined],
    ]);
    const timestamps = rows.slice(1).map((row) => row[4]);
    expect(timestamps.every((value) => value instanceof Date)).toBe(true);
    expect((timestamps as Date[]).map((date) => date.toISOString())).toEqual([
      at('2026-03-01', '00:00:00'),
      at('2026-03-02', '08:30:00'),
      at('2026-03-02', '23:59:59'),
    ]);
    expect(sheet.getCell('E2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it("writes the caller's wall-clock time when a tz is given, and audits the download", async () => {
    await insertAudit([{ actor: 'boss@example.com', action: 'edit user', at: at('2026-03-01', '22:30:00') }]);
    const response = await download('start_date=2026-03-02&end_date=2026-03-02&tz=Africa/Johannesburg');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getCell('E1').value).toBe('Timestamp (Africa/Johannesburg)');
    expect((sheet.getCell('E2').value as Date).toISOString()).toBe('2026-03-02T00:30:00.000Z');
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'export audit log').execute();
    expect(audit).toMatchObject([
      { actor: 'boss@example.com', details: 'Downloaded audit_logs.xlsx for 2026-03-02 to 2026-03-02' },
    ]);
  });
});

describe('an export the admin cancels', () => {
  it('stops writing without harming the server', async () => {
    const rows = Array.from({ length: 30_000 }, (_, index) => ({
      actor: 'bulk@example.com',
      action: 'edit user',
      details: `Entry ${index} with some words to make the file bigger`,
      at: at(
        '2026-05-01',
        `${String(Math.floor(index / 3600) % 24).padStart(2, '0')}:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}`,
      ),
    }));
    for (let start = 0; start < rows.length; start += 2000) await insertAudit(rows.slice(start, start + 2000));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const headers = { cookie: `${SESSION_COOKIE}=${admin.cookie}` };
    for (const path of [
      '/api/audit/export?start_date=2026-05-01&end_date=2026-05-01',
      '/api/logs/login-activity.csv',
    ]) {
      // A browser cancelling a download: the first bytes arrive, then the connection goes away.
      await new Promise<void>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (response) => {
          expect(response.statusCode).toBe(200);
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) =>
          (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error),
        );
      });
    }
    const health = await t.request({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    // The server still closes promptly: nothing is left writing to a cancelled download.
    const closed = await Promise.race([
      t.app.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(resolve, 5000, 'hung')),
    ]);
    expect(closed).toBe('closed');
  });
});
