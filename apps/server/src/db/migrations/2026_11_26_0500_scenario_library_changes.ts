import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Remediation ranks the published scenarios by what they train, and read every one of them on every request, so
// its time grew with the library (docs/operations.md, "Searching and counting"). A server now keeps what the
// library trains in memory and reads it again only when the library changed: `row_counts` row
// `scenarios:changes` moves on with every insert, update or delete of a scenario, by a trigger (per row on SQLite,
// per statement on PostgreSQL), so every server sees a change another one made.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const NAME = 'scenarios_changes';
const BUMP =
  `insert into row_counts (name, value) values ('scenarios:changes', 1) ` +
  `on conflict (name) do update set value = row_counts.value + 1`;

export async function up(db: AnyDb): Promise<void> {
  await sql`insert into row_counts (name, value) values ('scenarios:changes', 0) on conflict (name) do nothing`.execute(
    db,
  );
  if (isPostgres(db)) {
    await sql
      .raw(`create function ${NAME}() returns trigger language plpgsql as $$ begin ${BUMP}; return null; end $$`)
      .execute(db);
    await sql
      .raw(
        `create trigger ${NAME} after insert or update or delete on scenarios ` +
          `for each statement execute function ${NAME}()`,
      )
      .execute(db);
    return;
  }
  for (const change of ['insert', 'update', 'delete'] as const)
    await sql.raw(`create trigger ${NAME}_${change} after ${change} on scenarios begin ${BUMP}; end`).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw(`drop trigger if exists ${NAME} on scenarios`).execute(db);
    await sql.raw(`drop function if exists ${NAME}()`).execute(db);
  } else {
    for (const change of ['insert', 'update', 'delete'] as const)
      await sql.raw(`drop trigger if exists ${NAME}_${change}`).execute(db);
  }
  await sql`delete from row_counts where name = 'scenarios:changes'`.execute(db);
}
