import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { secondaryIndexes, withSecondaryIndexesRebuilt } from './bulk-load';

// The seed script and the benchmarks load millions of rows with the tables' secondary indexes dropped, then
// build them again: the same indexes must come back, counters kept by triggers must stay right, and the
// constraints that decide conflicts must hold meanwhile.
describe('loading many rows with the secondary indexes rebuilt afterwards', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const event = (email: string) => ({
    email,
    role: 'student',
    event: 'login' as const,
    ip: '10.0.0.1',
    at: '2026-01-01T00:00:00.000Z',
  });
  const counted = async () =>
    Number(
      (await t.db.selectFrom('row_counts').select('value').where('name', '=', 'login_events').executeTakeFirst())
        ?.value ?? 0,
    );

  it('drops the indexes while loading, keeps the triggers, and builds the same indexes again', async () => {
    const before = await secondaryIndexes(t.db, ['login_events']);
    expect(before.map((index) => index.name)).toContain('login_events_email_idx');
    const countBefore = await counted();

    const during = await withSecondaryIndexesRebuilt(t.db, ['login_events'], async () => {
      await t.db
        .insertInto('login_events')
        .values([event('bulk-a@example.test'), event('bulk-b@example.test')])
        .execute();
      return secondaryIndexes(t.db, ['login_events']);
    });

    expect(during).toEqual([]);
    expect(await secondaryIndexes(t.db, ['login_events'])).toEqual(before);
    expect(await counted()).toBe(countBefore + 2);
    const found = await t.db
      .selectFrom('login_events')
      .select('email')
      .where('email', '=', 'bulk-b@example.test')
      .execute();
    expect(found).toHaveLength(1);
  });

  it('keeps primary keys and unique constraints while loading', async () => {
    const user = {
      id: 'bulk-user-1',
      email: 'bulk-unique@example.test',
      password_hash: 'x',
      first_name: 'Bulk',
      last_name: 'Load',
      designation: '',
      role: 'student' as const,
      disabled: 0,
      failed_attempts: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    await withSecondaryIndexesRebuilt(t.db, ['users'], async () => {
      await t.db.insertInto('users').values(user).execute();
      await expect(
        t.db
          .insertInto('users')
          .values({ ...user, id: 'bulk-user-2' })
          .execute(),
      ).rejects.toThrow(/unique|duplicate/i);
    });
    const users = await t.db.selectFrom('users').select('id').where('email', '=', user.email).execute();
    expect(users).toEqual([{ id: 'bulk-user-1' }]);
  });

  it('builds the indexes again when the load fails, and passes the failure on', async () => {
    const before = await secondaryIndexes(t.db, ['login_events', 'users']);
    await expect(
      withSecondaryIndexesRebuilt(t.db, ['login_events', 'users'], async () => {
        await sql`select 1`.execute(t.db);
        throw new Error('the load broke');
      }),
    ).rejects.toThrow('the load broke');
    expect(await secondaryIndexes(t.db, ['login_events', 'users'])).toEqual(before);
  });
});
