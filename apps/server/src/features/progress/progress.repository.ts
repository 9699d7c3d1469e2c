import { PASS_MARK_RATIO, type SortDirection, type TrainingProgressSortColumn } from '@tradecraft/shared';
import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import { boundedCount, countCapFor, type BoundedTotal } from '../../db/bounded-count';
import type { DbOrTrx } from '../../db/database';
import { containsIgnoringCase } from '../../db/contains';
import { containsOnIndex, matchesThroughSearchIndex } from '../../db/text-search';
import type { Run, RunDecisionsTable, Scenario } from '../../db/schema';
import type { SkillTally } from '../runs/run-figures';

// Every query of progress and reporting. The runs table keeps each run's scenario name and step count as
// they were at the start, so no query here has to read a scenario to score a run.

export interface UserRunRow {
  id: string;
  scenario_id: string;
  scenario_name: string;
  step_count: number;
  score_thousandths: number;
  percent_base: number;
  pending_reviews: number;
  status: Run['status'];
  started_at: string;
  finished_at: string | null;
  /** Null when the scenario row is missing; the deletion time when it was deleted from the library. */
  scenario_row_id: string | null;
  scenario_deleted_at: string | null;
}

/** A decision as progress reads it: every column but its row id. */
export type DecisionRow = Omit<Selectable<RunDecisionsTable>, 'id'>;

const DECISION_COLUMNS = [
  'run_decisions.run_id',
  'run_decisions.seq',
  'run_decisions.step_id',
  'run_decisions.option_index',
  'run_decisions.correct',
  'run_decisions.decision',
  'run_decisions.feedback',
  'run_decisions.technique',
  'run_decisions.time_ms',
  'run_decisions.at',
  'run_decisions.kind',
  'run_decisions.skill',
  'run_decisions.credit_thousandths',
  'run_decisions.first_submission',
  'run_decisions.scored',
  'run_decisions.hint_used',
  'run_decisions.result',
] as const;

/** The platform difficulty as stored by the Difficulty Adjuster (JSON text), if any. */
export async function findDifficultySetting(db: DbOrTrx): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'difficulty').executeTakeFirst();
  return row?.value;
}

/** A user's runs, newest first, with whether their scenario is still in the library. */
export function listRunsOfUser(db: DbOrTrx, userId: string): Promise<UserRunRow[]> {
  return db
    .selectFrom('runs')
    .leftJoin('scenarios', 'scenarios.id', 'runs.scenario_id')
    .select([
      'runs.id',
      'runs.scenario_id',
      'runs.scenario_name',
      'runs.step_count',
      'runs.score_thousandths',
      'runs.percent_base',
      'runs.pending_reviews',
      'runs.status',
      'runs.started_at',
      'runs.finished_at',
      'scenarios.id as scenario_row_id',
      'scenarios.deleted_at as scenario_deleted_at',
    ])
    .where('runs.user_id', '=', userId)
    .orderBy('runs.started_at', 'desc')
    .orderBy('runs.id', 'desc')
    .execute();
}

/**
 * Every decision of every run of a user, in ONE query (never one per run), in run and step order. The
 * join walks runs by (user_id, started_at) and decisions by their (run_id, seq) key.
 */
export function listDecisionsOfUser(db: DbOrTrx, userId: string): Promise<DecisionRow[]> {
  return db
    .selectFrom('run_decisions')
    .innerJoin('runs', 'runs.id', 'run_decisions.run_id')
    .select(DECISION_COLUMNS)
    .where('runs.user_id', '=', userId)
    .orderBy('run_decisions.run_id')
    .orderBy('run_decisions.seq')
    .execute();
}

export function listDecisionsOfRun(db: DbOrTrx, runId: string): Promise<DecisionRow[]> {
  return db.selectFrom('run_decisions').select(DECISION_COLUMNS).where('run_id', '=', runId).orderBy('seq').execute();
}

export function findRun(db: DbOrTrx, runId: string): Promise<Run | undefined> {
  return db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
}

/** The scenario row even when it was deleted from the library (past runs keep pointing at it). */
export function findScenarioRow(db: DbOrTrx, id: string): Promise<Scenario | undefined> {
  return db.selectFrom('scenarios').selectAll().where('id', '=', id).executeTakeFirst();
}

export { findPlayedDefinition as findRunDefinition } from '../../plugins/played-definition.repository';

export type CatalogueRow = Pick<
  Scenario,
  'id' | 'name' | 'type' | 'difficulty' | 'description' | 'step_count' | 'definition'
>;

/**
 * The library's scenarios (published, not deleted) with their definitions, for recommendations: optionally without
 * the ones a user has completed and without one scenario (the report's own).
 */
export function listCatalogue(
  db: DbOrTrx,
  options: { notCompletedBy?: string; except?: string } = {},
): Promise<CatalogueRow[]> {
  return db
    .selectFrom('scenarios')
    .select(['id', 'name', 'type', 'difficulty', 'description', 'step_count', 'definition'])
    .where('deleted_at', 'is', null)
    .where('current_version_id', 'is not', null)
    .$if(options.except !== undefined, (qb) => qb.where('id', '!=', options.except!))
    .$if(options.notCompletedBy !== undefined, (qb) =>
      qb.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('runs')
              .select('runs.id')
              .whereRef('runs.scenario_id', '=', 'scenarios.id')
              .where('runs.user_id', '=', options.notCompletedBy!)
              .where('runs.status', '=', 'completed'),
          ),
        ),
      ),
    )
    .orderBy('name')
    .orderBy('id')
    .execute();
}

// ---- Training Progress ---------------------------------------------------------------------------------

export interface TrainingProgressFilters {
  search?: string | undefined;
}

export interface TrainingProgressRowData {
  id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  scenario_id: string;
  scenario_name: string;
  step_count: number;
  score_thousandths: number;
  percent_base: number;
  pending_reviews: number;
  status: Run['status'];
  started_at: string;
  finished_at: string | null;
}

/**
 * A search matching at most this many people reads only their runs, through the (user_id, started_at) index; one
 * matching more matches common text, and the list walks its sort's index testing each run's person instead.
 */
const FEW_PEOPLE = 200;

const fullName = sql<string>`${sql.ref('users.first_name')} || ' ' || ${sql.ref('users.last_name')}`;
const personHolds = (text: string) =>
  sql<SqlBool>`(${containsIgnoringCase(sql.ref('users.email'), text)} or ${containsIgnoringCase(fullName, text)})`;

/** Up to `limit` people whose email or name contains the text, through the people's search index. */
async function matchingPeople(db: DbOrTrx, text: string, limit: number): Promise<string[]> {
  const indexed = await matchesThroughSearchIndex(db, {
    table: 'users',
    key: sql.ref('users.id'),
    value: sql.ref<string>('users.id'),
    searches: [
      { column: 'users.email', text },
      { column: 'users.full_name', text },
    ],
    conditions: [personHolds(text)],
    limit,
    holding: 'any',
  });
  if (indexed) return indexed;
  const onIndex = await Promise.all([
    containsOnIndex(db, 'users.email', sql.ref('users.email'), text),
    containsOnIndex(db, 'users.full_name', fullName, text),
  ]);
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where(sql<SqlBool>`(${sql.join(onIndex, sql` or `)})`)
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Which runs a search keeps: those of a few people, of people holding common text, or none. */
type PersonSearch = { people: string[] } | { text: string } | 'none';

async function personSearch(db: DbOrTrx, filters: TrainingProgressFilters): Promise<PersonSearch | null> {
  const text = filters.search?.trim();
  if (!text) return null;
  const people = await matchingPeople(db, text, FEW_PEOPLE + 1);
  if (people.length === 0) return 'none';
  return people.length <= FEW_PEOPLE ? { people } : { text };
}

function filteredRuns(db: DbOrTrx, search: PersonSearch | null) {
  const runs = db.selectFrom('runs').innerJoin('users', 'users.id', 'runs.user_id');
  if (search === null) return runs;
  if (search === 'none') return runs.where(sql<SqlBool>`1 = 0`);
  return 'people' in search ? runs.where('runs.user_id', 'in', search.people) : runs.where(personHolds(search.text));
}

// Sort keys as SQL expressions with literals only (no bound parameters), so each can match the expression
// index of the same text in migrations 0050 and 2026_11_23_0401 on both databases.
const completed = sql.lit('completed');
/** Score percent order: the unrounded ratio sorts exactly as the rounded percent does; '-' (unknown) first. */
const SCORE_KEY = sql<number>`case when runs.percent_base > 0 then (runs.score_thousandths * 1.0) / runs.percent_base else -1 end`;
/**
 * '-' (0) < Awaiting review (1) < Fail (2) < Pass (3); Pass ⇔ 2·thousandths ≥ 1390·base ⇔ round(percent) ≥ 70
 * (see PASS_MARK_RATIO).
 */
const RESULT_KEY = sql<number>`case when runs.status = ${completed} and runs.percent_base > 0 then case when runs.pending_reviews > 0 then 1 when ${sql.lit(PASS_MARK_RATIO.scoreFactor)} * runs.score_thousandths >= ${sql.lit(PASS_MARK_RATIO.baseFactor)} * runs.percent_base then 3 else 2 end else 0 end`;
/** Completed (0) < Incomplete (1), as the words sort. */
const STATUS_KEY = sql<number>`case when runs.status = ${completed} then 0 else 1 end`;

const SORT_KEYS: Record<Exclude<TrainingProgressSortColumn, 'started'>, Expression<unknown>> = {
  user: sql`users.email`,
  training: sql`runs.scenario_name`,
  score: SCORE_KEY,
  result: RESULT_KEY,
  status: STATUS_KEY,
};

const ROW_COLUMNS = [
  'runs.id',
  'runs.user_id',
  'users.email',
  'users.first_name',
  'users.last_name',
  'runs.scenario_id',
  'runs.scenario_name',
  'runs.step_count',
  'runs.score_thousandths',
  'runs.percent_base',
  'runs.pending_reviews',
  'runs.status',
  'runs.started_at',
  'runs.finished_at',
] as const;

/**
 * Every run has its user (runs.user_id is a cascading foreign key), so without a search no join is needed; the
 * count stops where the pager no longer needs it (bounded, "1,000+").
 */
function countRuns(db: DbOrTrx, search: PersonSearch | null, paging: TrainingProgressPaging) {
  const query = search ? filteredRuns(db, search).select('runs.id') : db.selectFrom('runs').select('runs.id');
  return boundedCount(db, query, countCapFor(paging.page, paging.pageSize));
}

export interface TrainingProgressPaging {
  sort: TrainingProgressSortColumn;
  dir: SortDirection;
  page: number;
  pageSize: number;
}

/** The query of one page (exported so a test can check its plan walks an index). */
export function trainingProgressPageQuery(db: DbOrTrx, search: PersonSearch | null, options: TrainingProgressPaging) {
  const { sort, dir, page, pageSize } = options;
  let rowsQuery = filteredRuns(db, search).select(ROW_COLUMNS);
  if (sort !== 'started') rowsQuery = rowsQuery.orderBy(SORT_KEYS[sort], dir);
  return rowsQuery
    .orderBy('runs.started_at', dir)
    .orderBy('runs.id', dir)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/**
 * One page of every user's runs. Search, sort and paging all happen in SQL; the order always ends in
 * (started_at, id) in the same direction, so each sort key with its index is one index walk. A search first finds
 * its people (see FEW_PEOPLE).
 */
export async function listTrainingProgress(
  db: DbOrTrx,
  filters: TrainingProgressFilters,
  options: TrainingProgressPaging,
): Promise<{ rows: TrainingProgressRowData[] } & BoundedTotal> {
  const search = await personSearch(db, filters);
  if (search === 'none') return { rows: [], total: 0, totalIsLowerBound: false };
  const [rows, count] = await Promise.all([
    trainingProgressPageQuery(db, search, options).execute(),
    countRuns(db, search, options),
  ]);
  return { rows, ...count };
}

/**
 * Every run matching the filters, newest first, in batches: keyset paging on (started_at, id) keeps each
 * batch an index walk and memory flat however many runs there are.
 */
export async function* trainingProgressBatches(
  db: DbOrTrx,
  filters: TrainingProgressFilters,
  batchSize = 5000,
): AsyncGenerator<TrainingProgressRowData[]> {
  const search = await personSearch(db, filters);
  if (search === 'none') return;
  let after: { startedAt: string; id: string } | null = null;
  for (;;) {
    const cursor: { startedAt: string; id: string } | null = after;
    const rows: TrainingProgressRowData[] = await filteredRuns(db, search)
      .select(ROW_COLUMNS)
      .$if(cursor !== null, (qb) =>
        qb.where((eb) => eb(eb.refTuple('runs.started_at', 'runs.id'), '<', eb.tuple(cursor!.startedAt, cursor!.id))),
      )
      .orderBy('runs.started_at', 'desc')
      .orderBy('runs.id', 'desc')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { startedAt: last.started_at, id: last.id };
  }
}

// ---- Skills --------------------------------------------------------------------------------------------

export interface TechniqueTally {
  technique: string;
  attempts: number;
  correct: number;
  /** Credit earned on first submissions of scored steps, in thousandths. */
  thousandths: number;
}

/** Runs of one user, or everyone's when userId is null (the join only when a user is named). */
function decisionsOf(db: DbOrTrx, userId: string | null) {
  const base = db.selectFrom('run_decisions');
  return userId === null
    ? base
    : base.innerJoin('runs', 'runs.id', 'run_decisions.run_id').where('runs.user_id', '=', userId);
}

/** Answers, right answers and credit per technique: one user's, or everyone's when userId is null. */
export async function tallyTechniques(db: DbOrTrx, userId: string | null): Promise<TechniqueTally[]> {
  const technique = sql<string>`run_decisions.technique`;
  // First answers on scored steps only, as the run's verdicts count them: `correct` is set when the answer itself
  // earned full credit (a hint's charge aside), so it counts the right verdicts; a later answer after a Retry
  // is neither an attempt nor a right answer.
  const rows = await decisionsOf(db, userId)
    .select((eb) => [
      technique.as('technique'),
      eb.fn.countAll<number>().as('attempts'),
      eb.fn.sum<number>(sql`run_decisions.correct`).as('correct'),
      eb.fn.sum<number>(sql`run_decisions.credit_thousandths`).as('thousandths'),
    ])
    .where(sql<SqlBool>`run_decisions.technique is not null`)
    .where(sql<SqlBool>`run_decisions.first_submission = 1 and run_decisions.scored = 1`)
    .groupBy(technique)
    .execute();
  return rows.map((row) => ({
    technique: row.technique,
    attempts: Number(row.attempts),
    correct: Number(row.correct ?? 0),
    thousandths: Number(row.thousandths ?? 0),
  }));
}

/** First submissions on scored steps and their credit per skill (and kind, for unknown skills): one query. */
export async function tallySkills(db: DbOrTrx, userId: string | null): Promise<SkillTally[]> {
  const rows = await decisionsOf(db, userId)
    .select((eb) => [
      sql<string>`run_decisions.skill`.as('skill'),
      sql<string>`run_decisions.kind`.as('kind'),
      eb.fn.countAll<number>().as('attempts'),
      eb.fn.sum<number>(sql`run_decisions.credit_thousandths`).as('thousandths'),
    ])
    .where(sql<SqlBool>`run_decisions.first_submission = 1 and run_decisions.scored = 1`)
    .groupBy([sql`run_decisions.skill`, sql`run_decisions.kind`])
    .execute();
  return rows.map((row) => ({
    skill: row.skill,
    kind: row.kind,
    attempts: Number(row.attempts),
    thousandths: Number(row.thousandths ?? 0),
  }));
}

/** Counted answers and their credit per run and skill, for a page of runs: one query. */
export async function tallySkillsOfRuns(
  db: DbOrTrx,
  runIds: readonly string[],
): Promise<Array<SkillTally & { run_id: string }>> {
  if (runIds.length === 0) return [];
  const rows = await db
    .selectFrom('run_decisions')
    .select((eb) => [
      'run_decisions.run_id',
      'run_decisions.skill',
      'run_decisions.kind',
      eb.fn.countAll<number>().as('attempts'),
      eb.fn.sum<number>('run_decisions.credit_thousandths').as('thousandths'),
    ])
    .where('run_decisions.run_id', 'in', [...runIds])
    .where('run_decisions.first_submission', '=', 1)
    .where('run_decisions.scored', '=', 1)
    .groupBy(['run_decisions.run_id', 'run_decisions.skill', 'run_decisions.kind'])
    .execute();
  return rows.map((row) => ({
    run_id: row.run_id,
    skill: row.skill,
    kind: row.kind,
    attempts: Number(row.attempts),
    thousandths: Number(row.thousandths ?? 0),
  }));
}

/** The recorded results of every estimate's first submission: one user's, or everyone's. */
export async function listEstimateResults(db: DbOrTrx, userId: string | null): Promise<string[]> {
  const rows = await decisionsOf(db, userId)
    .select(sql<string | null>`run_decisions.result`.as('result'))
    .where(sql<SqlBool>`run_decisions.kind = 'estimate' and run_decisions.first_submission = 1`)
    .execute();
  return rows.map((row) => row.result).filter((result): result is string => result !== null);
}

/** Right first answers and missed steps of a run, as its verdicts count them (runs/run-figures verdictOf). */
export interface RunVerdictTally {
  run_id: string;
  right: number;
  missed: number;
}

const VERDICT_TALLY_CHUNK = 500;

/**
 * Right first answers and missed steps per run, for a page or a batch of runs (one query per 500 runs). The SQL
 * says what verdictOf says with the columns alone: `correct` is set when the answer itself earned full credit (a
 * hint's charge aside); only a visit's first answer on a scored step counts; a written answer an instructor has
 * not graded yet is neither right nor missed.
 */
export async function tallyVerdictsOfRuns(db: DbOrTrx, runIds: readonly string[]): Promise<RunVerdictTally[]> {
  const tallies: RunVerdictTally[] = [];
  for (let start = 0; start < runIds.length; start += VERDICT_TALLY_CHUNK) {
    const chunk = runIds.slice(start, start + VERDICT_TALLY_CHUNK);
    const rows = await db
      .selectFrom('run_decisions')
      .select((eb) => [
        'run_decisions.run_id',
        eb.fn.sum<number>(sql`case when run_decisions.correct = 1 then 1 else 0 end`).as('right'),
        eb.fn.sum<number>(sql`case when run_decisions.correct = 1 then 0 else 1 end`).as('missed'),
      ])
      .where('run_decisions.run_id', 'in', chunk)
      .where('run_decisions.first_submission', '=', 1)
      .where('run_decisions.scored', '=', 1)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('step_reviews')
              .select('step_reviews.decision_id')
              .whereRef('step_reviews.decision_id', '=', 'run_decisions.id')
              .where('step_reviews.status', '=', 'pending'),
          ),
        ),
      )
      .groupBy('run_decisions.run_id')
      .execute();
    for (const row of rows)
      tallies.push({ run_id: row.run_id, right: Number(row.right ?? 0), missed: Number(row.missed ?? 0) });
  }
  return tallies;
}
