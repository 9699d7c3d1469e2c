import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../../test/helper';
import { openDatabase, type Db } from './database';
import { preparedStatementName, reusableQuery } from './reusable-query';

// Reusable queries run as named prepared statements on PostgreSQL (database.ts, docs/operations.md).
const byKey = reusableQuery<{ key: string }, Record<string, unknown>>((db, param) =>
  db.selectFrom('rate_limits').selectAll().where('key', '=', param('key')),
);

describe('prepared statements', () => {
  it('names the SQL of a reusable query once it has run, and no other SQL', async () => {
    const { db } = openDatabase({ sqliteFile: ':memory:' });
    try {
      await sql`create table rate_limits (key text primary key, count integer, window_ends_at text)`.execute(db);
      await byKey(db, { key: 'a' });
      const compiled = db.selectFrom('rate_limits').selectAll().where('key', '=', 'a').compile();
      expect(preparedStatementName(compiled.sql)).toMatch(/^tc_q\d+$/);
      expect(preparedStatementName('select 1')).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });

  const onPostgres = usingPostgres() ? describe : null;
  onPostgres?.('on PostgreSQL', () => {
    const schema = `prepared_${randomBytes(4).toString('hex')}`;
    let db: Db;
    beforeAll(async () => {
      // One connection, so every query below runs where the statements were prepared.
      db = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, pgPoolSize: 1 }).db;
      await sql`create schema ${sql.id(schema)}`.execute(db);
      await db.destroy();
      db = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, pgSchema: schema, pgPoolSize: 1 }).db;
      await sql`create table rate_limits (key text primary key, count integer, window_ends_at text)`.execute(db);
      await sql`insert into rate_limits values ('a', 1, 'later')`.execute(db);
    });
    afterAll(async () => {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    });

    const prepared = async () =>
      (await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(db)).rows.map(
        (row) => row.name,
      );

    it('prepares a reusable query on the connection and runs it again by name', async () => {
      expect(await byKey(db, { key: 'a' })).toEqual([{ key: 'a', count: 1, window_ends_at: 'later' }]);
      const [name] = await prepared();
      expect(name).toMatch(/^tc_q\d+$/);
      expect(await byKey(db, { key: 'b' })).toEqual([]);
      expect(await prepared()).toEqual([name]);
    });

    it('answers again after a migration changes the columns of a prepared query', async () => {
      await byKey(db, { key: 'a' });
      await sql`alter table rate_limits add column note text`.execute(db);
      // Outside a transaction the query is prepared again under a new name and retried.
      expect(await byKey(db, { key: 'a' })).toEqual([{ key: 'a', count: 1, window_ends_at: 'later', note: null }]);
      await sql`alter table rate_limits drop column note`.execute(db);
      // Inside one, PostgreSQL has aborted the transaction: it fails, and the next transaction prepares anew.
      await expect(db.transaction().execute((trx) => byKey(trx, { key: 'a' }))).rejects.toMatchObject({
        code: '0A000',
      });
      expect(await db.transaction().execute((trx) => byKey(trx, { key: 'a' }))).toEqual([
        { key: 'a', count: 1, window_ends_at: 'later' },
      ]);
    });
  });
});
