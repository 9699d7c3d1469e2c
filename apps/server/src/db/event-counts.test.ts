import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { loginEventCounts } from '../features/activity/activity.repository';
import { at, insertRun, insertScenario } from '../features/progress/progress.fixtures';
import { dashboardCounts } from '../features/users/users.repository';
import { slotBoundaryAtOrAfter } from './event-counts';

// Migration 2026_11_26_0400: the week's runs and the day's sign-in events are read from quarter-hour counters. Each
// count here is checked against counting the rows themselves, for starts on a quarter hour and between two.
describe('counts by quarter hour', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Starts on and between quarter hours, and before, inside and after the rows below (minutes after 2026-01-01). */
  const STARTS = [-30, 0, 7.5, 14.99, 15, 29, 44, 45, 60, 61, 90, 200].map(at);

  const direct = async (table: 'runs' | 'login_events', since: string, event?: string) => {
    const column = table === 'runs' ? 'started_at' : 'at';
    const row = await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .where(column, '>=', since)
      .$if(event !== undefined, (qb) => qb.where('event' as never, '=', event as never))
      .executeTakeFirstOrThrow();
    return Number(row.c);
  };

  it('rounds a start up to the next quarter hour, and keeps one on a quarter hour', () => {
    expect(slotBoundaryAtOrAfter('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(slotBoundaryAtOrAfter('2026-01-01T00:00:00.001Z')).toBe('2026-01-01T00:15:00.000Z');
    expect(slotBoundaryAtOrAfter('2026-01-01T23:50:00.000Z')).toBe('2026-01-02T00:00:00.000Z');
    // Nepal's day starts at 18:15 UTC: a quarter hour.
    expect(slotBoundaryAtOrAfter('2025-12-31T18:15:00.000Z')).toBe('2025-12-31T18:15:00.000Z');
  });

  it("counts the runs started since any start as the runs' own start times do, and forgets deleted runs", async () => {
    const scenario = await insertScenario(t.db);
    const user = await t.createUser({ role: 'student' });
    for (const minute of [0, 0, 3, 14.5, 15, 16, 29.9, 30, 44, 46, 59.99, 75])
      await insertRun(t.db, { user, scenario, startedMinute: minute, status: 'ended' });
    const runsSince = async (since: string) =>
      (await dashboardCounts(t.db, { weekStart: since, dayStart: since })).runsThisWeek;

    for (const since of STARTS) expect(await runsSince(since), since).toBe(await direct('runs', since));
    expect(await runsSince(at(0))).toBe(12);

    await t.db.deleteFrom('runs').where('started_at', '>=', at(15)).where('started_at', '<', at(45)).execute();
    expect(await runsSince(at(0))).toBe(7);
    for (const since of STARTS) expect(await runsSince(since), since).toBe(await direct('runs', since));
  });

  it('counts the sign-ins, sign-outs and failed sign-ins since any start, written one by one or many at once', async () => {
    const event = (minute: number, kind: string) => ({
      email: 'slots@example.com',
      role: 'student',
      event: kind as 'login',
      ip: '127.0.0.1',
      at: at(minute),
    });
    await t.db.insertInto('login_events').values(event(1, 'login')).execute();
    await t.db
      .insertInto('login_events')
      .values([
        event(1, 'login'),
        event(2, 'failed_login'),
        event(14.9, 'logout'),
        event(15, 'login'),
        event(31, 'failed_login'),
        event(31, 'failed_login'),
        event(59, 'logout'),
        event(61, 'login'),
      ])
      .execute();

    for (const since of STARTS) {
      const counts = await loginEventCounts(t.db, since);
      expect(counts.loginsToday, since).toBe(await direct('login_events', since, 'login'));
      expect(counts.logoutsToday, since).toBe(await direct('login_events', since, 'logout'));
      const dashboard = await dashboardCounts(t.db, { weekStart: since, dayStart: since });
      expect(dashboard.failedSignInsToday, since).toBe(await direct('login_events', since, 'failed_login'));
    }
    expect((await loginEventCounts(t.db, at(0))).loginsToday).toBe(4);

    await t.db
      .deleteFrom('login_events')
      .where('email', '=', 'slots@example.com')
      .where('event', '=', 'login')
      .execute();
    expect((await loginEventCounts(t.db, at(0))).loginsToday).toBe(0);
    expect((await loginEventCounts(t.db, at(0))).logoutsToday).toBe(2);
  });
});
