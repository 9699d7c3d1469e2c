import { sql, type Kysely } from 'kysely';

// Scenario versions (issue 18): a scenario keeps every version it was published as, and at most one draft. Runs
// pin the version they started on and play it to the end, whatever is published later.
//
// `scenarios` keeps its listed columns (name, type, difficulty, description, definition, step count) as a copy
// of the current published version, so lists and recommendations read one row per scenario as before; it points
// at that version (`current_version_id`, null while a scenario has only a draft) and at its draft.
//
// Every existing scenario becomes version 1, published, holding its current definition, and every existing run
// pins it, so old data keeps working. Its id is `<scenario id>@v1`; later versions get random ids.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scenario_versions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('scenario_id', 'text', (col) => col.notNull().references('scenarios.id'))
    .addColumn('number', 'integer', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull()) // draft | published | superseded
    // A draft's save counter (1 when created); a published version keeps the revision it was published at.
    .addColumn('revision', 'integer', (col) => col.notNull())
    // JSON: a published version's checked definition; a draft's as the author saved it (maybe unfinished).
    .addColumn('definition', 'text', (col) => col.notNull())
    // The number of the version a draft started from (null for a first version).
    .addColumn('based_on', 'integer')
    // What changed against `based_on`, in words (computed when the draft is saved).
    .addColumn('summary', 'text', (col) => col.notNull().defaultTo(''))
    // The SHA-256 of the built-in file a version was loaded from (null for versions made otherwise).
    .addColumn('source_hash', 'text')
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('saved_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('saved_at', 'text', (col) => col.notNull())
    .addColumn('published_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('published_at', 'text')
    .addUniqueConstraint('scenario_versions_number_unique', ['scenario_id', 'number'])
    .execute();
  // At most one draft and one published version per scenario, even when two admins race.
  await sql`create unique index scenario_versions_one_draft_idx on scenario_versions (scenario_id) where state = 'draft'`.execute(
    db,
  );
  await sql`create unique index scenario_versions_one_published_idx on scenario_versions (scenario_id) where state = 'published'`.execute(
    db,
  );

  await db.schema.alterTable('scenarios').addColumn('current_version_id', 'text').execute();
  await db.schema.alterTable('scenarios').addColumn('draft_version_id', 'text').execute();
  await db.schema.alterTable('runs').addColumn('version_id', 'text').execute();

  await sql`insert into scenario_versions
      (id, scenario_id, number, state, revision, definition, based_on, summary, source_hash,
       created_by, created_at, saved_by, saved_at, published_by, published_at)
    select id || '@v1', id, 1, 'published', 1, definition, null, 'First version', content_hash,
       null, created_at, null, updated_at, null, updated_at
    from scenarios`.execute(db);
  await sql`update scenarios set current_version_id = id || '@v1'`.execute(db);
  await sql`update runs set version_id = scenario_id || '@v1'
    where exists (select 1 from scenarios where scenarios.id = runs.scenario_id)`.execute(db);
  await db.schema.createIndex('runs_version_idx').on('runs').column('version_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_version_idx').execute();
  await db.schema.alterTable('runs').dropColumn('version_id').execute();
  await db.schema.alterTable('scenarios').dropColumn('draft_version_id').execute();
  await db.schema.alterTable('scenarios').dropColumn('current_version_id').execute();
  await db.schema.dropTable('scenario_versions').execute();
}
