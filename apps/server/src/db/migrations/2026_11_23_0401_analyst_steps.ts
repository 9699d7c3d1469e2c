import { sql, type Kysely } from 'kysely';
import { serialType } from './dialect';

// Analyst steps: every step kind earns a credit from 0 to 1, the score is kept exactly in thousandths, and a
// run's percent divides by a stored base (docs/scenario-format.md, "Scoring").
//
// Runs recorded before keep their numbers: a correct decision becomes a credit of 1000 thousandths and a wrong one
// 0, so score_thousandths = score x 1000; and percent_base = step_count, the denominator the old percent was shown
// with, so every old run's percent and result stay exactly what they were. The run engine only rewrites
// percent_base when the run changes (an old run still in progress gets the new rule on its next answer).
//
// The Training Progress sort keys (migration 0050) read the old score; they are replaced by the same keys over
// the new columns, under the same names. '-' (0) < Awaiting review (1) < Fail (2) < Pass (3);
// Pass ⇔ round(thousandths / (10·base)) ≥ 70 ⇔ 2·thousandths ≥ 1390·base.
const SCORE_KEY = 'case when percent_base > 0 then (score_thousandths * 1.0) / percent_base else -1 end';
const RESULT_KEY =
  "case when status = 'completed' and percent_base > 0 then case when pending_reviews > 0 then 1 when 2 * score_thousandths >= 1390 * percent_base then 3 else 2 end else 0 end";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_score_key_idx').execute();
  await db.schema.dropIndex('runs_result_key_idx').execute();

  await db.schema
    .alterTable('runs')
    .addColumn('score_thousandths', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // What the percent divides by, in steps.
  await db.schema
    .alterTable('runs')
    .addColumn('percent_base', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // Scored step visits answered.
  await db.schema
    .alterTable('runs')
    .addColumn('played_steps', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // Scored steps on the scenario's best path when the run started.
  await db.schema
    .alterTable('runs')
    .addColumn('best_path_steps', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // Written answers waiting for an instructor.
  await db.schema
    .alterTable('runs')
    .addColumn('pending_reviews', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // The current visit: its hint was opened (0/1), its first submission was made (0/1).
  await db.schema
    .alterTable('runs')
    .addColumn('hint_opened', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('runs')
    .addColumn('visit_submitted', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // The raw credit of the last submission (kinds other than choice branch on it).
  await db.schema.alterTable('runs').addColumn('last_credit_thousandths', 'integer').execute();

  await sql`update runs set
      score_thousandths = score * 1000,
      percent_base = step_count,
      best_path_steps = step_count,
      played_steps = (select count(*) from run_decisions where run_decisions.run_id = runs.id),
      visit_submitted = current_answered`.execute(db);

  await db.schema.alterTable('runs').dropColumn('score').execute();
  // Technique figures are computed from the decisions' credits now.
  await db.schema.alterTable('runs').dropColumn('technique_counts').execute();

  await sql`create index runs_score_key_idx on runs ((${sql.raw(SCORE_KEY)}), started_at, id)`.execute(db);
  await sql`create index runs_result_key_idx on runs ((${sql.raw(RESULT_KEY)}), started_at, id)`.execute(db);

  await db.schema
    .alterTable('run_decisions')
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('choice'))
    .execute();
  await db.schema
    .alterTable('run_decisions')
    .addColumn('skill', 'text', (col) => col.notNull().defaultTo('response'))
    .execute();
  await db.schema
    .alterTable('run_decisions')
    .addColumn('credit_thousandths', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // Before this change every answer counted (a Retry's second answer too), so every old row is a first submission.
  await db.schema
    .alterTable('run_decisions')
    .addColumn('first_submission', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('run_decisions')
    .addColumn('scored', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('run_decisions')
    .addColumn('hint_used', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // The step result as recorded (JSON: the revealed key and per-element feedback); null for old rows.
  await db.schema.alterTable('run_decisions').addColumn('result', 'text').execute();
  await sql`update run_decisions set credit_thousandths = correct * 1000`.execute(db);

  await db.schema
    .createTable('step_reviews')
    .addColumn('id', serialType(db), (col) => col.primaryKey())
    .addColumn('decision_id', 'integer', (col) =>
      col.notNull().unique().references('run_decisions.id').onDelete('cascade'),
    )
    .addColumn('run_id', 'text', (col) => col.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scenario_id', 'text', (col) => col.notNull())
    .addColumn('step_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull()) // pending | graded
    // The automatic share after any hint charge, and the hint charge itself (grading applies it to the rubric too).
    .addColumn('auto_thousandths', 'integer', (col) => col.notNull())
    .addColumn('hint_cost_thousandths', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('points', 'text') // JSON array, one per rubric criterion
    .addColumn('comment', 'text')
    .addColumn('graded_by', 'text')
    .addColumn('submitted_at', 'text', (col) => col.notNull())
    .addColumn('graded_at', 'text')
    .execute();
  await db.schema
    .createIndex('step_reviews_status_idx')
    .on('step_reviews')
    .columns(['status', 'submitted_at', 'id'])
    .execute();
  await db.schema.createIndex('step_reviews_user_idx').on('step_reviews').columns(['user_id', 'status']).execute();
  await db.schema
    .createIndex('step_reviews_scenario_idx')
    .on('step_reviews')
    .columns(['scenario_id', 'status'])
    .execute();
  await db.schema.createIndex('step_reviews_run_idx').on('step_reviews').column('run_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('step_reviews').execute();
  for (const column of ['kind', 'skill', 'credit_thousandths', 'first_submission', 'scored', 'hint_used', 'result']) {
    await db.schema.alterTable('run_decisions').dropColumn(column).execute();
  }
  await db.schema.dropIndex('runs_score_key_idx').execute();
  await db.schema.dropIndex('runs_result_key_idx').execute();
  await db.schema
    .alterTable('runs')
    .addColumn('score', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('runs')
    .addColumn('technique_counts', 'text', (col) => col.notNull().defaultTo('{}'))
    .execute();
  await sql`update runs set score = score_thousandths / 1000`.execute(db);
  for (const column of [
    'score_thousandths',
    'percent_base',
    'played_steps',
    'best_path_steps',
    'pending_reviews',
    'hint_opened',
    'visit_submitted',
    'last_credit_thousandths',
  ]) {
    await db.schema.alterTable('runs').dropColumn(column).execute();
  }
  await sql`create index runs_score_key_idx on runs ((case when step_count > 0 then (score * 100.0) / step_count else -1 end), started_at, id)`.execute(
    db,
  );
  await sql`create index runs_result_key_idx on runs ((case when status = 'completed' and step_count > 0 then case when 200 * score >= 139 * step_count then 2 else 1 end else 0 end), started_at, id)`.execute(
    db,
  );
}
