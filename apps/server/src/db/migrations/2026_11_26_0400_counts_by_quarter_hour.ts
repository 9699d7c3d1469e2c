import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// "Runs this week" on the Admin Dashboard and the sign-ins and sign-outs of today on User Monitoring counted the
// rows of a time range, which grows with the activity (docs/operations.md, "Searching and counting"). Here the
// rows are counted as they are written, per quarter of an hour (`event_counts`, keyed by name and slot):
//
// - `runs`: runs by the quarter hour they started in;
// - `login_events:<event>`: sign-in events by kind (`login`, `logout`, `failed_login`, ...).
//
// A day or a week in any time zone starts on a quarter hour (every UTC offset in use is a multiple of 15 minutes),
// so its count is the sum of at most 672 slots; apps/server/src/db/event-counts.ts adds the rows of a start that
// is not on one. Triggers keep the slots as `row_counts` does (2026_11_26_0200): per row on SQLite, per statement
// from the transition tables on PostgreSQL.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** The slot of an ISO-8601 text timestamp: its minute rounded down to a quarter, as `YYYY-MM-DDTHH:MM`. */
const slotOf = (at: string) =>
  `substr(${at}, 1, 14) || case when substr(${at}, 15, 2) < '15' then '00' when substr(${at}, 15, 2) < '30' ` +
  `then '15' when substr(${at}, 15, 2) < '45' then '30' else '45' end`;

const UPSERT = `on conflict (name, slot) do update set value = event_counts.value + excluded.value`;

interface Counted {
  table: 'runs' | 'login_events';
  /** The counter's name for a row. */
  name: (row: string) => string;
  at: string;
}

const COUNTED: Counted[] = [
  { table: 'runs', name: () => `'runs'`, at: 'started_at' },
  { table: 'login_events', name: (row) => `'login_events:' || ${row}.event`, at: 'at' },
];

const sqliteBump = (counted: Counted, row: 'new' | 'old', by: 1 | -1) =>
  `insert into event_counts (name, slot, value) values ` +
  `(${counted.name(row)}, ${slotOf(`${row}.${counted.at}`)}, ${by}) ${UPSERT}`;

const pgBump = (counted: Counted, rows: 'inserted' | 'removed', sign: '' | '-') =>
  `insert into event_counts (name, slot, value) select name, slot, ${sign}count(*) from ` +
  `(select ${counted.name('r')} as name, ${slotOf(`r.${counted.at}`)} as slot from ${rows} r) shares ` +
  `group by name, slot ${UPSERT}`;

const triggerName = (counted: Counted, change: 'inserted' | 'removed') => `${counted.table}_slots_${change}`;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('event_counts')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('slot', 'text', (col) => col.notNull())
    .addColumn('value', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('event_counts_pk', ['name', 'slot'])
    .execute();
  for (const counted of COUNTED) {
    await sql
      .raw(
        `insert into event_counts (name, slot, value) select name, slot, count(*) from ` +
          `(select ${counted.name(counted.table)} as name, ${slotOf(`${counted.table}.${counted.at}`)} as slot ` +
          `from ${counted.table}) shares group by name, slot`,
      )
      .execute(db);
    if (isPostgres(db)) {
      for (const [change, on, rows, sign] of [
        ['inserted', 'insert', 'new table as inserted', ''],
        ['removed', 'delete', 'old table as removed', '-'],
      ] as const) {
        const name = triggerName(counted, change);
        await sql
          .raw(
            `create function ${name}() returns trigger language plpgsql as $$ begin ` +
              `${pgBump(counted, change, sign)}; return null; end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger ${name} after ${on} on ${counted.table} referencing ${rows} ` +
              `for each statement execute function ${name}()`,
          )
          .execute(db);
      }
    } else {
      await sql
        .raw(
          `create trigger ${triggerName(counted, 'inserted')} after insert on ${counted.table} begin ` +
            `${sqliteBump(counted, 'new', 1)}; end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${triggerName(counted, 'removed')} after delete on ${counted.table} begin ` +
            `${sqliteBump(counted, 'old', -1)}; end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const counted of COUNTED) {
    for (const change of ['inserted', 'removed'] as const) {
      const name = triggerName(counted, change);
      if (isPostgres(db)) {
        await sql.raw(`drop trigger if exists ${name} on ${counted.table}`).execute(db);
        await sql.raw(`drop function if exists ${name}()`).execute(db);
      } else await sql.raw(`drop trigger if exists ${name}`).execute(db);
    }
  }
  await db.schema.dropTable('event_counts').execute();
}
