import { startOfLocalDay, type LoginActivityPage } from '@tradecraft/shared';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, xlsxRows, type TestApp } from '../../../test/helper';
import { loginEventBatches } from './activity.repository';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['userWithSession']>>;

const DAY = 86_400_000;
const today = new Date();
const todayAt = (hours: number, minutes = 0) =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), hours, minutes)).toISOString();
const daysAgo = (days: number, hours = 12) => new Date(Date.parse(todayAt(hours)) - days * DAY).toISOString();
const dateOnly = (iso: string) => iso.slice(0, 10);

type Event = 'login' | 'logout' | 'failed_login' | 'password_change';
const insertEvents = (rows: { email: string; role?: string; event: Event; at: string }[]) =>
  t.db
    .insertInto('login_events')
    .values(
      rows.map((row) => ({ email: row.email, role: row.role ?? 'student', event: row.event, ip: null, at: row.at })),
    )
    .execute();

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.userWithSession('admin', { email: 'boss@example.com' });
  // Signing the admin in wrote one event; start each test from a known table.
  await t.db.deleteFrom('login_events').execute();
});
afterEach(() => t.close());

const page = async (query: string) => {
  const response = await t.request({ method: 'GET', url: `/api/logs/login-activity?${query}`, cookie: admin.cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as LoginActivityPage;
};

describe('GET /api/logs/login-activity', () => {
  beforeEach(async () => {
    await insertEvents([
      { email: 'alice@example.com', event: 'login', at: daysAgo(3) },
      { email: 'alice@example.com', event: 'logout', at: daysAgo(2) },
      { email: 'bob_1@example.com', role: 'admin', event: 'failed_login', at: daysAgo(1) },
      { email: 'carol@example.com', role: 'unknown', event: 'failed_login', at: todayAt(0, 30) },
      { email: 'ALICE-lookalike@example.com', event: 'login', at: todayAt(0, 45) },
    ]);
  });

  it('pages newest first by default, 10 to a page, with the total', async () => {
    const first = await page('');
    expect(first.items.map((item) => item.email)).toEqual([
      'ALICE-lookalike@example.com',
      'carol@example.com',
      'bob_1@example.com',
      'alice@example.com',
      'alice@example.com',
    ]);
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 10 });
    expect(first.items[0]).toEqual({
      id: expect.any(Number),
      email: 'ALICE-lookalike@example.com',
      role: 'student',
      event: 'login',
      timestamp: todayAt(0, 45),
    });
    const second = await page('pageSize=2&page=3');
    expect(second.items.map((item) => item.timestamp)).toEqual([daysAgo(3)]);
    expect(second.total).toBe(5);
  });

  it('searches the email case-insensitively, with _ matched literally', async () => {
    expect((await page('search=ALICE')).total).toBe(3);
    expect((await page('search=b_1')).items.map((item) => item.email)).toEqual(['bob_1@example.com']);
    expect((await page('search=b_')).total).toBe(1);
    expect((await page('search=nobody')).items).toEqual([]);
  });

  it('pages a search that matches many events the same way as one that matches few', async () => {
    const many = Array.from({ length: 2100 }, (_, index) => ({
      email: `bulk${index}@example.com`,
      event: 'login' as const,
      at: new Date(Date.parse(daysAgo(10)) + index * 1000).toISOString(),
    }));
    for (let start = 0; start < many.length; start += 500) await insertEvents(many.slice(start, start + 500));
    const newest = await page('search=BULK&page=2');
    // Counted only as far as the pager needs, as without a search.
    expect(newest.total).toBe(1000);
    expect(newest.totalIsLowerBound).toBe(true);
    expect(newest.items.map((item) => item.email)).toEqual(
      Array.from({ length: 10 }, (_, index) => `bulk${2089 - index}@example.com`),
    );
    const few = await page('search=bulk209&sort=email&dir=desc');
    // '@' sorts after the digits: bulk209@ comes before bulk2099@ going down.
    expect(few.items.map((item) => item.email)).toEqual([
      'bulk209@example.com',
      ...Array.from({ length: 9 }, (_, index) => `bulk209${9 - index}@example.com`),
    ]);
    expect(few.total).toBe(11);
    expect((await page('search=bulk209&sort=email&dir=desc&page=2')).items.map((item) => item.email)).toEqual([
      'bulk2090@example.com',
    ]);
    expect((await page('search=bulk&page=500')).items).toEqual([]);
  });

  it('filters by event and by whole days, both ends included', async () => {
    expect((await page('event=failed_login')).items.map((item) => item.email)).toEqual([
      'carol@example.com',
      'bob_1@example.com',
    ]);
    const lastTwoDays = await page(`from=${dateOnly(daysAgo(2))}&to=${dateOnly(daysAgo(1))}`);
    expect(lastTwoDays.items.map((item) => item.event)).toEqual(['failed_login', 'logout']);
    // At Fernando de Noronha (UTC-2 all year) today starts at 02:00 UTC, so 00:30 and 00:45 UTC fall on yesterday.
    expect((await page(`from=${dateOnly(todayAt(12))}&tz=America/Noronha`)).total).toBe(0);
    expect((await page(`to=${dateOnly(daysAgo(1))}&tz=America/Noronha`)).total).toBe(5);
  });

  it('sorts by email, role, event and timestamp, both ways', async () => {
    expect((await page('sort=email&dir=asc')).items.map((item) => item.email)).toEqual([
      'ALICE-lookalike@example.com',
      'alice@example.com',
      'alice@example.com',
      'bob_1@example.com',
      'carol@example.com',
    ]);
    expect((await page('sort=role&dir=desc')).items.map((item) => item.role)).toEqual([
      'unknown',
      'student',
      'student',
      'student',
      'admin',
    ]);
    expect((await page('sort=event&dir=asc')).items.map((item) => item.event)).toEqual([
      'failed_login',
      'failed_login',
      'login',
      'login',
      'logout',
    ]);
    expect((await page('sort=timestamp&dir=asc')).items[0]!.timestamp).toBe(daysAgo(3));
  });

  it('refuses bad filters and non-admins', async () => {
    for (const query of ['event=hack', 'from=yesterday', 'sort=ip', 'page=0', 'pageSize=1000']) {
      const response = await t.request({
        method: 'GET',
        url: `/api/logs/login-activity?${query}`,
        cookie: admin.cookie,
      });
      expect(response.statusCode, query).toBe(400);
    }
    const student = await t.userWithSession('student');
    for (const url of ['/api/logs/login-activity', '/api/logs/login-activity/stats', '/api/logs/login-activity.csv']) {
      expect((await t.request({ method: 'GET', url, cookie: student.cookie })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

describe('GET /api/logs/login-activity/stats', () => {
  it("counts all events, failed logins, and today's logins and logouts (UTC, or the tz given)", async () => {
    await insertEvents([
      { email: 'a@example.com', event: 'login', at: daysAgo(1) },
      { email: 'a@example.com', event: 'logout', at: daysAgo(1) },
      { email: 'a@example.com', event: 'login', at: todayAt(0, 10) },
      { email: 'a@example.com', event: 'logout', at: todayAt(0, 20) },
      { email: 'b@example.com', event: 'failed_login', at: daysAgo(5) },
      { email: 'b@example.com', event: 'password_change', at: todayAt(0, 5) },
    ]);
    const utc = await t.request({ method: 'GET', url: '/api/logs/login-activity/stats', cookie: admin.cookie });
    expect(utc.json()).toEqual({ total: 6, failedLogins: 1, loginsToday: 1, logoutsToday: 1 });
    // In New York the day starts at another instant (04:00 or 05:00 UTC, with daylight saving): count around that one.
    const localStart = startOfLocalDay(new Date(), 'America/New_York').getTime();
    await t.db.deleteFrom('login_events').execute();
    await insertEvents([
      { email: 'a@example.com', event: 'login', at: new Date(localStart - 60_000).toISOString() },
      { email: 'a@example.com', event: 'login', at: new Date(localStart + 60_000).toISOString() },
    ]);
    const behind = await t.request({
      method: 'GET',
      url: '/api/logs/login-activity/stats?tz=America/New_York',
      cookie: admin.cookie,
    });
    expect(behind.json()).toEqual({ total: 2, failedLogins: 0, loginsToday: 1, logoutsToday: 0 });
  });
});

describe('GET /api/logs/login-activity.csv', () => {
  const download = async (query = '') => {
    const response = await t.request({
      method: 'GET',
      url: `/api/logs/login-activity.csv?${query}`,
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(200);
    return response;
  };

  it('downloads user_login_logs.csv with the rows of the current search, newest first', async () => {
    await insertEvents([
      { email: 'keep@example.com', event: 'login', at: daysAgo(2) },
      { email: 'keep@example.com', event: 'logout', at: daysAgo(1) },
      { email: 'other@example.com', event: 'login', at: daysAgo(1) },
    ]);
    const response = await download('search=KEEP');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="user_login_logs.csv"');
    // A byte-order mark, so Excel on Windows reads the file as UTF-8.
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const parsed = Papa.parse<Record<string, string>>(response.body, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual(['Email', 'Role', 'Event', 'Timestamp']);
    expect(parsed.data).toEqual([
      { Email: 'keep@example.com', Role: 'student', Event: 'logout', Timestamp: daysAgo(1) },
      { Email: 'keep@example.com', Role: 'student', Event: 'login', Timestamp: daysAgo(2) },
    ]);
  });

  it('neutralises cells that a spreadsheet would run as a formula, and quotes commas and quotes', async () => {
    await insertEvents([
      { email: '=HYPERLINK("http://evil.example","x")', role: 'unknown', event: 'failed_login', at: daysAgo(1) },
      { email: '+1@example.com', role: '-admin', event: 'failed_login', at: daysAgo(2) },
      { email: '@sum(a1)', role: '\tstudent', event: 'failed_login', at: daysAgo(3) },
    ]);
    const parsed = Papa.parse<Record<string, string>>((await download()).body, { header: true, skipEmptyLines: true });
    expect(parsed.data.map((row) => [row.Email, row.Role])).toEqual([
      [`'=HYPERLINK("http://evil.example","x")`, 'unknown'],
      ["'+1@example.com", "'-admin"],
      ["'@sum(a1)", "'\tstudent"],
    ]);
  });

  it('sends just the header row when nothing matches, and audits the export', async () => {
    const parsed = Papa.parse<string[]>((await download('search=nobody')).body, { skipEmptyLines: true });
    expect(parsed.data).toEqual([['Email', 'Role', 'Event', 'Timestamp']]);
    const audit = await t.db.selectFrom('audit_log').selectAll().execute();
    expect(audit).toMatchObject([
      { actor: 'boss@example.com', action: 'export login activity', screen: 'User Monitoring' },
    ]);
  });

  it('downloads the same rows as user_login_logs.xlsx, filtered and neutralised alike, and audits it', async () => {
    await insertEvents([
      { email: 'keep@example.com', event: 'login', at: daysAgo(2) },
      { email: '=keep(1)@example.com', event: 'failed_login', at: daysAgo(1) },
      { email: 'other@example.com', event: 'login', at: daysAgo(1) },
    ]);
    const response = await t.request({
      method: 'GET',
      url: '/api/logs/login-activity.xlsx?search=keep',
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe('attachment; filename="user_login_logs.xlsx"');
    expect(await xlsxRows(response)).toEqual([
      ['Email', 'Role', 'Event', 'Timestamp'],
      ["'=keep(1)@example.com", 'student', 'failed_login', daysAgo(1)],
      ['keep@example.com', 'student', 'login', daysAgo(2)],
    ]);
    const audit = await t.db.selectFrom('audit_log').select('details').execute();
    expect(audit).toEqual([{ details: 'Downloaded user_login_logs.xlsx (email contains "keep")' }]);
  });

  it('walks every row exactly once across batches, even when timestamps tie', async () => {
    const at = daysAgo(1);
    await insertEvents(
      Array.from({ length: 11 }, (_, index) => ({ email: `u${index}@example.com`, event: 'login' as const, at })),
    );
    await insertEvents([{ email: 'late@example.com', event: 'login', at: todayAt(0, 1) }]);
    const seen: string[] = [];
    for await (const batch of loginEventBatches(t.db, {}, 4)) seen.push(...batch.map((row) => row.email));
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    expect(seen[0]).toBe('late@example.com');
  });
});
