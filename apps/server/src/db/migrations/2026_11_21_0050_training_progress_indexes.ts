import { sql, type Kysely } from 'kysely';

// Training Progress sorts every user's runs by training, score %, result and status, then by start time.
// Each sort key gets an index that ends in (started_at, id), so a page of 100,000 runs is an index walk,
// not a sort of the table. The score, result and status keys are expressions; the query writes the very
// same expressions (features/progress/progress.repository.ts), which is what lets both databases use them.
// Pass ⇔ 200·score ≥ 139·step_count ⇔ the rounded percent is at least 70.
const SCORE_KEY = 'case when step_count > 0 then (score * 100.0) / step_count else -1 end';
const RESULT_KEY =
  "case when status = 'completed' and step_count > 0 then case when 200 * score >= 139 * step_count then 2 else 1 end else 0 end";
const STATUS_KEY = "case when status = 'completed' then 0 else 1 end";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('runs_training_idx').on('runs').columns(['scenario_name', 'started_at', 'id']).execute();
  await sql`create index runs_score_key_idx on runs ((${sql.raw(SCORE_KEY)}), started_at, id)`.execute(db);
  await sql`create index runs_result_key_idx on runs ((${sql.raw(RESULT_KEY)}), started_at, id)`.execute(db);
  await sql`create index runs_status_key_idx on runs ((${sql.raw(STATUS_KEY)}), started_at, id)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_status_key_idx').execute();
  await db.schema.dropIndex('runs_result_key_idx').execute();
  await db.schema.dropIndex('runs_score_key_idx').execute();
  await db.schema.dropIndex('runs_training_idx').execute();
}
