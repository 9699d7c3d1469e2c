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

describe('statements run straight away on the SQLite connection', () => {
  let db: Db;
  beforeEach(async () => {
    db = openDatabase({ sqliteFile: ':memory:' }).db;
    await sql`create table rate_limits (key text primary key, count integer, window_ends_at text)`.execute(db);
    await sql`insert into rate_limits values ('a', 1, 'later')`.execute(db);
  });
  afterEach(() => db.destroy());

  it('from a connection held by withConnection, without going through Kysely, reading what Kysely reads', async () => {
    const viaKysely = await db.selectFrom('rate_limits').select(['key', 'count']).where('key', '=', 'a').execute();
    const direct = await withConnection(db, async (connection) => {
      const executeQuery = vi.spyOn(connection, 'executeQuery');
      const rows = await byKey(connection, { key: 'a' });
      expect(executeQuery).not.toHaveBeenCalled();
      return rows;
    });
    expect(direct).toEqual(viaKysely);
    expect(direct).toEqual([{ key: 'a', count: 1 }]);
  });

  it('from a transaction of withTransaction, inside it: they are rolled back with it', async () => {
    await expect(
      withTransaction(db, async (trx) => {
        await insert(trx, { key: 'b' });
        expect(await byKey(trx, { key: 'b' })).toHaveLength(1);
        throw new Error('give up');
      }),
    ).rejects.toThrow('give up');
    expect(await byKey(db, { key: 'b' })).toEqual([]);
  });

  it('from the database while a holder has it: never, that one waits for the holder to finish', async () => {
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

  it('from an instance of withConnection after its work ended: never, it goes through Kysely', async () => {
    let kept: Db | undefined;
    await withConnection(db, async (connection) => {
      kept = connection;
    });
    const executeQuery = vi.spyOn(kept!, 'executeQuery');
    await byKey(kept!, { key: 'a' });
    expect(executeQuery).toHaveBeenCalledTimes(1);
  });

  it('from the database while nobody holds the connection, without going through Kysely', async () => {
    const executeQuery = vi.spyOn(db, 'executeQuery');
    expect(await byKey(db, { key: 'a' })).toEqual([{ key: 'a', count: 1 }]);
    await insert(db, { key: 'd' });
    expect(executeQuery).not.toHaveBeenCalled();
    expect(await db.selectFrom('rate_limits').select('key').where('key', '=', 'd').execute()).toHaveLength(1);
  });
});
