import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// The account cards of the Admin Dashboard and Manage Users read counters instead of counting every account
// (docs/operations.md, "Searching and counting"). `row_counts` (2026_11_25_0001) keeps them:
//
// - `users:pending`: accounts whose role is `pending`;
// - `users:approved`: accounts with any other role;
// - `users:active`: approved accounts that are not disabled (a lock after failed sign-ins ends with time, so the
//   cards take away the accounts locked now, found through the index of `locked_until` made here).
//
// Manage Users also gets an index for each of its sorts, so a page is an index walk at any number of accounts.
//
// Triggers add each written account's share (1 or 0 to each counter) and take away the share it had. SQLite runs
// them per row; PostgreSQL per statement, from the statement's transition tables, so a batch of accounts written in
// one transaction updates each counter once (see 2026_11_26_0001 for why a trigger per row is slow there). An update
// that changes neither count writes nothing.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const PENDING = (row: string) => `(case when ${row}.role = 'pending' then 1 else 0 end)`;
const APPROVED = (row: string) => `(case when ${row}.role <> 'pending' then 1 else 0 end)`;
const ACTIVE = (row: string) => `(case when ${row}.role <> 'pending' and ${row}.disabled = 0 then 1 else 0 end)`;

const UPSERT = `on conflict (name) do update set value = row_counts.value + excluded.value`;

/** SQLite: the row's share added (`new`) or taken away (`old`), or the difference for an update. */
const sqliteBump = (plus: 'new' | null, minus: 'old' | null) => {
  const share = (counter: (row: string) => string) =>
    [plus && counter(plus), minus && `-${counter(minus)}`].filter(Boolean).join(' ');
  return (
    `insert into row_counts (name, value) select name, delta from ` +
    `(select 'users:pending' as name, ${share(PENDING)} as delta union all ` +
    `select 'users:approved', ${share(APPROVED)} union all ` +
    `select 'users:active', ${share(ACTIVE)}) where delta <> 0 ${UPSERT}`
  );
};

/** PostgreSQL: the shares of a statement's rows, from its transition tables. */
const pgBump = (plus: 'inserted' | null, minus: 'removed' | null) => {
  const sum = (counter: (row: string) => string) =>
    [
      plus && `(select coalesce(sum(${counter('r')}), 0) from ${plus} r)`,
      minus && `-(select coalesce(sum(${counter('r')}), 0) from ${minus} r)`,
    ]
      .filter(Boolean)
      .join(' ');
  return (
    `insert into row_counts (name, value) select name, delta from ` +
    `(select 'users:pending' as name, ${sum(PENDING)} as delta union all ` +
    `select 'users:approved', ${sum(APPROVED)} union all ` +
    `select 'users:active', ${sum(ACTIVE)}) shares where delta <> 0 ${UPSERT}`
  );
};

const PG_TRIGGERS = [
  { name: 'users_counts_inserted', on: 'insert', tables: 'new table as inserted', bump: pgBump('inserted', null) },
  { name: 'users_counts_removed', on: 'delete', tables: 'old table as removed', bump: pgBump(null, 'removed') },
  {
    name: 'users_counts_updated',
    on: 'update',
    tables: 'old table as removed new table as inserted',
    bump: pgBump('inserted', 'removed'),
  },
];

/**
 * Manage Users' sorts (apps/server/src/features/users/users.repository.ts), each ending in the key. Status sorts
 * disabled first or last but names always A to Z, so its two directions need an index each.
 */
const SORT_INDEXES: { name: string; columns: string }[] = [
  { name: 'users_name_sort_idx', columns: 'lower(first_name), lower(last_name), id' },
  { name: 'users_email_sort_idx', columns: 'email, id' },
  { name: 'users_role_sort_idx', columns: 'role, id' },
  { name: 'users_designation_sort_idx', columns: 'lower(designation), id' },
  { name: 'users_status_up_sort_idx', columns: 'disabled, lower(first_name), id' },
  { name: 'users_status_down_sort_idx', columns: 'disabled, lower(first_name) desc, id' },
  { name: 'users_locked_idx', columns: 'disabled, locked_until' },
];

export async function up(db: AnyDb): Promise<void> {
  for (const index of SORT_INDEXES) await sql.raw(`create index ${index.name} on users (${index.columns})`).execute(db);
  await sql`insert into row_counts (name, value)
    select 'users:pending', count(*) from users where role = 'pending'
    union all
    select 'users:approved', count(*) from users where role <> 'pending'
    union all
    select 'users:active', count(*) from users where role <> 'pending' and disabled = 0
    on conflict (name) do update set value = excluded.value`.execute(db);
  if (isPostgres(db)) {
    for (const trigger of PG_TRIGGERS) {
      await sql
        .raw(
          `create function ${trigger.name}() returns trigger language plpgsql as $$ begin ` +
            `${trigger.bump}; return null; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${trigger.name} after ${trigger.on} on users referencing ${trigger.tables} ` +
            `for each statement execute function ${trigger.name}()`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(`create trigger users_counts_inserted after insert on users begin ${sqliteBump('new', null)}; end`)
    .execute(db);
  await sql
    .raw(`create trigger users_counts_removed after delete on users begin ${sqliteBump(null, 'old')}; end`)
    .execute(db);
  await sql
    .raw(
      `create trigger users_counts_updated after update of role, disabled on users begin ` +
        `${sqliteBump('new', 'old')}; end`,
    )
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const trigger of PG_TRIGGERS) {
    if (isPostgres(db)) {
      await sql.raw(`drop trigger if exists ${trigger.name} on users`).execute(db);
      await sql.raw(`drop function if exists ${trigger.name}()`).execute(db);
    } else await sql.raw(`drop trigger if exists ${trigger.name}`).execute(db);
  }
  for (const index of SORT_INDEXES) await sql.raw(`drop index if exists ${index.name}`).execute(db);
  await sql`delete from row_counts where name in ('users:pending', 'users:approved', 'users:active')`.execute(db);
}
