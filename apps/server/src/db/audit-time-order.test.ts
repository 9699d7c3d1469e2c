import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from './database';
import * as newestFirst from './migrations/2026_11_26_0600_audit_log_newest_first';

// Migration 2026_11_26_0600 is SQLite's alone (PostgreSQL's trigram indexes hand out matches unordered), so this
// test makes its own SQLite file on either run.
describe('the audit log in time order by key (SQLite)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-audit-order-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let db: Db;
  let file = 0;
  beforeEach(async () => {
    db = openDatabase({ sqliteFile: path.join(dir, `audit-${++file}.db`) }).db;
    await migrateToLatest(db);
  });
  afterEach(() => db.destroy());

  const hour = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();
  const write = async (...hours: number[]) => {
    for (const n of hours)
      await db
        .insertInto('audit_log')
        .values({ actor: 'a@x.test', action: 'test', details: `hour ${n}`, at: hour(n) })
        .execute();
  };
  const order = () => db.selectFrom('audit_log_time_order').selectAll().executeTakeFirstOrThrow();
  const lastId = async () =>
    (
      await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow()
    ).id;

  it('is in order from the first key while every entry is written no earlier than the one before', async () => {
    await write(1, 2, 2, 5);
    expect(await order()).toEqual({ in_order_from: 0, latest_at: hour(5) });
  });

  it('starts after an entry written earlier than one already there, and from the latest time on', async () => {
    await write(1, 5, 3);
    const backdated = await lastId();
    expect(await order()).toEqual({ in_order_from: backdated + 1, latest_at: hour(5) });
    // Later than the backdated entry but earlier than the latest: still out of order.
    await write(4);
    expect((await order()).in_order_from).toBe((await lastId()) + 1);
    await write(6, 7);
    expect(await order()).toEqual({ in_order_from: backdated + 2, latest_at: hour(7) });
  });

  it('counts a changed time, or an entry written under an older key, as out of order', async () => {
    await write(1, 2, 3);
    await db
      .updateTable('audit_log')
      .set({ at: hour(9) })
      .where('details', '=', 'hour 1')
      .execute();
    expect(await order()).toEqual({ in_order_from: (await lastId()) + 1, latest_at: hour(9) });

    await write(10, 11);
    const from = (await order()).in_order_from;
    await db.deleteFrom('audit_log').where('details', '=', 'hour 2').execute();
    await db
      .insertInto('audit_log')
      .values({ id: 2, actor: null, action: 'restore', at: hour(12) })
      .execute();
    expect((await order()).in_order_from).toBeGreaterThan(from);
    expect((await order()).in_order_from).toBe((await lastId()) + 1);
  });

  it('reads an existing log when migrating: in order after its last entry earlier than one before it', async () => {
    await newestFirst.down(db as never);
    await write(1, 3, 2, 4, 5);
    const backdated = (
      await db.selectFrom('audit_log').select('id').where('details', '=', 'hour 2').executeTakeFirstOrThrow()
    ).id;
    await newestFirst.up(db as never);
    expect(await order()).toEqual({ in_order_from: backdated + 1, latest_at: hour(5) });
  });

  it('keeps the search index keyed newest first, through writes, changes and deletes', async () => {
    await write(1, 2, 3);
    await db.updateTable('audit_log').set({ details: 'hour two' }).where('details', '=', 'hour 2').execute();
    await db.deleteFrom('audit_log').where('details', '=', 'hour 3').execute();
    const { rows } = await sql<{ id: number; details: string }>`select -rowid as id, details from audit_log_search
      where audit_log_search match '{details} : "hour"' order by rowid`.execute(db);
    const entries = await db.selectFrom('audit_log').select(['id', 'details']).orderBy('id', 'desc').execute();
    expect(rows).toEqual(entries);
    expect(rows.map((row) => row.details)).toEqual(['hour two', 'hour 1']);
  });
});
