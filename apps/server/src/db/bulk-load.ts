import { sql } from 'kysely';
import { isPostgresDb, type Db } from './database';

interface SecondaryIndex {
  name: string;
  definition: string;
}

/**
 * Loads many rows into `tables` with their secondary indexes dropped, then builds each index again in one
 * pass. A row-by-row insert into an index keyed by something random (an e-mail, an address) touches a random
 * page of it; once the index outgrows the page cache that is a read from disk per row, and the seed of ten
 * million sign-in events spent half an hour on it. Building an index afterwards sorts its keys once.
 *
 * Only for seeding a database nobody else uses meanwhile (the seed script, the benchmarks): queries would run
 * without those indexes. Primary keys and unique constraints stay (they decide conflicts), and so do triggers,
 * so the counters they maintain (docs/operations.md, "Searching and counting") stay right. The indexes come back even when
 * `load` fails.
 */
export async function withSecondaryIndexesRebuilt<T>(db: Db, tables: string[], load: () => Promise<T>): Promise<T> {
  const indexes = await secondaryIndexes(db, tables);
  for (const index of indexes) await sql`drop index ${sql.ref(index.name)}`.execute(db);
  try {
    return await load();
  } finally {
    for (const index of indexes) await buildIndex(db, index);
  }
}

/** PostgreSQL sorts an index's keys in `maintenance_work_mem` (64 MB by default, then on disk): more for this one. */
async function buildIndex(db: Db, index: SecondaryIndex): Promise<void> {
  if (!isPostgresDb(db)) {
    await sql.raw(index.definition).execute(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`set local maintenance_work_mem = '512MB'`.execute(trx);
    await sql.raw(index.definition).execute(trx);
  });
}

/** The indexes of `tables` other than those of primary keys and unique constraints, with their definitions. */
export async function secondaryIndexes(db: Db, tables: string[]): Promise<SecondaryIndex[]> {
  if (tables.length === 0) return [];
  if (isPostgresDb(db)) {
    // Indexes that back a constraint (primary key, unique) cannot be dropped on their own and are kept.
    const { rows } = await sql<SecondaryIndex>`
      select i.indexname as name, i.indexdef as definition
      from pg_indexes i
      where i.schemaname = current_schema()
        and i.tablename in (${sql.join(tables)})
        and not exists (
          select 1 from pg_constraint c
          where c.conname = i.indexname and c.connamespace = current_schema()::regnamespace
        )
      order by i.indexname`.execute(db);
    return rows;
  }
  // SQLite's own indexes for primary keys and unique columns have no SQL and cannot be dropped.
  const { rows } = await sql<SecondaryIndex>`
    select name, sql as definition from sqlite_master
    where type = 'index' and sql is not null and tbl_name in (${sql.join(tables)})
    order by name`.execute(db);
  return rows;
}
