import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from './database';
import { withConnection, withTransaction } from './held-connection';
import { reusableQuery } from './reusable-query';

const byKey = reusableQuery<{ key: string }, { key: string; count: number }>((db, param) =>
  db.selectFrom('rate_limits').select(['key', 'count']).where('key', '=', param('key')),
);
const insert = reusableQuery<{ key: string }, unknown>((db, param) =>
  db.insertInto('rate_limits').values({ key: param('key'), count: 1, window_ends_at: 'later' }),
);

describe('a SQLite connection held by withConnection or withTransaction', () => {
  let db: Db;
  beforeEach(async () => {
    db = openDatabase({ sqliteFile: ':memory:' }).db;
    await sql`create table rate_limits (key text primary key, count integer, window_ends_at text)`.execute(db);
    await sql`insert into rate_limits values ('a', 1, 'later')`.execute(db);
  });
  afterEach(() => db.destroy());

  it('runs a reusable query on it without going through Kysely, and reads what Kysely reads', async () => {
    const viaKysely = await byKey(db, { key: 'a' });
    const direct = await withConnection(db, async (connection) => {
      const executeQuery = vi.spyOn(connection, 'executeQuery');
      const rows = await byKey(connection, { key: 'a' });
      expect(executeQuery).not.toHaveBeenCalled();
      return rows;
    });
    expect(direct).toEqual(viaKysely);
    expect(direct).toEqual([{ key: 'a', count: 1 }]);
  });

  it('runs them inside the transaction: they are rolled back with it', async () => {
    await expect(
      withTransaction(db, async (trx) => {
        await insert(trx, { key: 'b' });
        expect(await byKey(trx, { key: 'b' })).toHaveLength(1);
        throw new Error('give up');
      }),
    ).rejects.toThrow('give up');
    expect(await byKey(db, { key: 'b' })).toEqual([]);
  });

  it('never lets another instance run on it meanwhile: that one waits for the holder to finish', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holder = withTransaction(db, async (trx) => {
      await insert(trx, { key: 'c' });
      await gate;
      throw new Error('roll back');
    }).catch(() => 'rolled back');
    await new Promise((resolve) => setTimeout(resolve, 10));
    let read: unknown[] | undefined;
    const reader = byKey(db, { key: 'c' }).then((rows) => (read = rows));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Run directly, the read would have seen the transaction's row before it was rolled back.
    expect(read).toBeUndefined();
    release();
    expect(await holder).toBe('rolled back');
    await reader;
    expect(read).toEqual([]);
  });

  it('lets go when the work ends: the instance it handed out goes through Kysely afterwards', async () => {
    let kept: Db | undefined;
    await withConnection(db, async (connection) => {
      kept = connection;
    });
    const executeQuery = vi.spyOn(kept!, 'executeQuery');
    await byKey(kept!, { key: 'a' });
    expect(executeQuery).toHaveBeenCalledTimes(1);
  });
});
