import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import { boundedCount, boundedTotal, COUNT_CAP_MIN, countCapFor, type BoundedTotal } from '../../db/bounded-count';
import { collectedFirst } from '../../db/collected-first';
import { containsIgnoringCase } from '../../db/contains';
import type { DbOrTrx } from '../../db/database';
import { containsText, matchesThroughSearchIndex } from '../../db/text-search';
import type { AssignmentsTable, CertificatesTable, Database, Run } from '../../db/schema';

// Every query of training programmes: cohorts, paths, assignments, notices, certificates and the analytics.

export type AssignmentRow = Selectable<AssignmentsTable>;
export type CertificateRow = Selectable<CertificatesTable>;

export interface PersonRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

const personColumns = ['users.id', 'users.email', 'users.first_name', 'users.last_name'] as const;

// ---- Cohorts ----------------------------------------------------------------------------------------------

export async function insertCohort(db: DbOrTrx, row: { id: string; name: string; createdBy: string; at: string }) {
  await db
    .insertInto('cohorts')
    .values({
      id: row.id,
      name: row.name,
      created_by: row.createdBy,
      created_at: row.at,
      updated_at: row.at,
      archived_at: null,
    })
    .execute();
}

export function findCohort(db: DbOrTrx, id: string) {
  return db.selectFrom('cohorts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateCohort(
  db: DbOrTrx,
  id: string,
  fields: { name?: string; archived_at?: string | null; updated_at: string },
) {
  await db.updateTable('cohorts').set(fields).where('id', '=', id).execute();
}

/** Which rows of a programmes list: archived ones too or not, a searched name, a page. */
export interface ListPage {
  includeArchived: boolean;
  search: string;
  page: number;
  pageSize: number;
}

type NamedTable = 'cohorts' | 'learning_paths' | 'scenarios';

/**
 * The rows a programmes list or picker shows, before paging, as conditions on `table`: kept (not archived or
 * deleted) unless `includeAll`, and the name holding the search (ignoring case), or the row among `ids`.
 */
function listConditions(
  table: NamedTable,
  { keptOnly, search, ids }: { keptOnly: boolean; search: string; ids?: readonly string[] | undefined },
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (keptOnly)
    conditions.push(
      sql<SqlBool>`${sql.ref(`${table}.${table === 'scenarios' ? 'deleted_at' : 'archived_at'}`)} is null`,
    );
  if (ids)
    conditions.push(
      ids.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`${sql.ref(`${table}.id`)} in (${sql.join(ids)})`,
    );
  else if (search !== '') conditions.push(containsIgnoringCase(sql.ref(`${table}.name`), search));
  return conditions;
}

/**
 * How a searched list reads its rows (docs/operations.md, "Searching and counting"), as Manage Users does: on
 * SQLite the trigram index gives the keys of the matches, up to `cap` + 1. Few: the page is sorted from them
 * alone. More (common text): the list walks its name index testing each name, which finds a page among the first
 * rows. Null when there is no search, on PostgreSQL (its planner picks the trigram index or the walk) or for text
 * too short for the index.
 */
function indexedMatches(
  db: DbOrTrx,
  table: NamedTable,
  filter: { keptOnly: boolean; search: string },
  cap: number,
): Promise<string[] | null> {
  if (filter.search === '') return Promise.resolve(null);
  return matchesThroughSearchIndex(db, {
    table,
    key: sql.ref(`${table}.id`),
    value: sql.ref<string>(`${table}.id`),
    searches: [{ column: `${table}.name`, text: filter.search }],
    conditions: listConditions(table, filter),
    limit: cap + 1,
  });
}

/**
 * The keys of one page of a table's rows by name: from the few indexed matches alone (collected first, so no
 * walk of the name index reads the whole table looking for them), or walking the name index.
 */
async function pageKeys(
  db: DbOrTrx,
  table: NamedTable,
  filter: { keptOnly: boolean; search: string },
  {
    indexed,
    page,
    pageSize,
    fewAtMost = COUNT_CAP_MIN,
  }: { indexed: string[] | null; page: number; pageSize: number; fewAtMost?: number },
): Promise<string[]> {
  const few = indexed !== null && indexed.length <= fewAtMost;
  const rows = db
    .selectFrom(table)
    .select([sql.ref<string>(`${table}.id`).as('id'), sql.ref<string>(`${table}.name`).as('name')])
    .where((eb) => eb.and(listConditions(table, { ...filter, ids: few ? indexed : undefined })));
  // Both select (id, name); the collected rows are read from the `matches` table expression.
  const source = few ? (collectedFirst(db, rows) as unknown as typeof rows) : rows;
  const ordered = source
    .orderBy(sql.ref('name'))
    .orderBy(sql.ref('id'))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return (await ordered.execute()).map((row) => row.id);
}

/** A page of a programmes list: its keys by name and its total, counted as far as the pager needs. */
async function listPage(
  db: DbOrTrx,
  table: NamedTable,
  { includeArchived, search, page, pageSize }: ListPage,
): Promise<{ ids: string[] } & BoundedTotal> {
  const filter = { keptOnly: !includeArchived, search };
  const cap = countCapFor(page, pageSize);
  const indexed = await indexedMatches(db, table, filter, cap);
  const total = indexed
    ? boundedTotal(indexed.length, cap)
    : await boundedCount(
        db,
        db
          .selectFrom(table)
          .select(sql.ref(`${table}.id`).as('id'))
          .where((eb) => eb.and(listConditions(table, filter))),
        cap,
      );
  if (total.total === 0) return { ids: [], ...total };
  return { ids: await pageKeys(db, table, filter, { indexed, page, pageSize }), ...total };
}

/** These rows in name order (a page whose keys are known). */
const byName = <T extends { name: string; id: string }>(rows: T[], ids: readonly string[]) => {
  const at = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
};

const cohortColumns = (eb: ExpressionBuilder<Database, 'cohorts'>) =>
  [
    'cohorts.id',
    'cohorts.name',
    'cohorts.created_at',
    'cohorts.archived_at',
    eb
      .selectFrom('cohort_members')
      .select((inner) => inner.fn.countAll<number>().as('n'))
      .whereRef('cohort_members.cohort_id', '=', 'cohorts.id')
      .as('member_count'),
    eb
      .selectFrom('assignments')
      .select((inner) => inner.fn.countAll<number>().as('n'))
      .whereRef('assignments.cohort_id', '=', 'cohorts.id')
      .where('assignments.cancelled_at', 'is', null)
      .as('assignment_count'),
  ] as const;

/**
 * A page of cohorts by name (cohorts_name_sort_idx), each with its member and assignment counts (read for the
 * page's rows only), and their total counted as far as the pager needs.
 */
export async function listCohorts(db: DbOrTrx, list: ListPage) {
  const { ids, ...total } = await listPage(db, 'cohorts', list);
  const rows =
    ids.length === 0
      ? []
      : await db.selectFrom('cohorts').select(cohortColumns).where('cohorts.id', 'in', ids).execute();
  return { rows: byName(rows, ids), ...total };
}

/** One cohort with its counts. */
export function findCohortSummary(db: DbOrTrx, id: string) {
  return db.selectFrom('cohorts').select(cohortColumns).where('cohorts.id', '=', id).executeTakeFirst();
}

export function listMembers(db: DbOrTrx, cohortId: string): Promise<PersonRow[]> {
  return db
    .selectFrom('cohort_members')
    .innerJoin('users', 'users.id', 'cohort_members.user_id')
    .select(personColumns)
    .where('cohort_members.cohort_id', '=', cohortId)
    .orderBy('users.last_name')
    .orderBy('users.first_name')
    .orderBy('users.id')
    .execute();
}

export async function countMembers(db: DbOrTrx, cohortId: string): Promise<number> {
  const row = await db
    .selectFrom('cohort_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('cohort_id', '=', cohortId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Adds the users not yet members; returns how many were added. */
export async function addMembers(
  db: DbOrTrx,
  cohortId: string,
  userIds: readonly string[],
  at: string,
): Promise<number> {
  const added = await db
    .insertInto('cohort_members')
    .values(userIds.map((userId) => ({ cohort_id: cohortId, user_id: userId, added_at: at })))
    .onConflict((conflict) => conflict.columns(['cohort_id', 'user_id']).doNothing())
    .returning('user_id')
    .execute();
  return added.length;
}

export async function removeMembers(db: DbOrTrx, cohortId: string, userIds: readonly string[]): Promise<number> {
  const result = await db
    .deleteFrom('cohort_members')
    .where('cohort_id', '=', cohortId)
    .where('user_id', 'in', [...userIds])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The users among these ids that are trainees (approved students), with their role. */
export function findPeople(db: DbOrTrx, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select([...personColumns, 'users.role'])
    .where('users.id', 'in', [...ids])
    .execute();
}

export function searchTrainees(db: DbOrTrx, search: string, limit: number): Promise<PersonRow[]> {
  return db
    .selectFrom('users')
    .select(personColumns)
    .where('users.role', '=', 'student')
    .where('users.disabled', '=', 0)
    .$if(search !== '', (query) =>
      query.where((eb) =>
        eb.or([
          containsText(db, 'users.email', eb.ref('users.id'), eb.ref('users.email'), search),
          containsText(
            db,
            'users.full_name',
            eb.ref('users.id'),
            sql`users.first_name || ' ' || users.last_name`,
            search,
          ),
        ]),
      ),
    )
    .orderBy('users.last_name')
    .orderBy('users.first_name')
    .orderBy('users.id')
    .limit(limit)
    .execute();
}

/** The cohorts a user belongs to. */
export async function cohortIdsOf(db: DbOrTrx, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('cohort_members').select('cohort_id').where('user_id', '=', userId).execute();
  return rows.map((row) => row.cohort_id);
}

/** The members of several cohorts, by cohort. */
export function membersOfCohorts(db: DbOrTrx, cohortIds: readonly string[]) {
  if (cohortIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('cohort_members')
    .select(['cohort_id', 'user_id'])
    .where('cohort_id', 'in', [...cohortIds])
    .execute();
}

// ---- Scenarios and runs (read only) -----------------------------------------------------------------------

export function findScenarioRows(db: DbOrTrx, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('scenarios')
    .select(['id', 'name', 'type', 'difficulty', 'deleted_at'])
    .where('id', 'in', [...ids])
    .execute();
}

export function findScenarioDefinition(db: DbOrTrx, id: string) {
  return db
    .selectFrom('scenarios')
    .select(['id', 'name', 'definition', 'deleted_at', 'current_version_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * How many times the scenario library has changed: a trigger adds one with every write to scenarios (migration
 * 2026_11_26_0500); null on a database that has not counted yet.
 */
export async function libraryChanges(db: DbOrTrx): Promise<number | null> {
  const row = await db
    .selectFrom('row_counts')
    .select('value')
    .where('name', '=', 'scenarios:changes')
    .executeTakeFirst();
  return row ? Number(row.value) : null;
}

/**
 * Every published scenario, without its definition and in no order (remediation sorts them its own way): a new
 * library reads the definitions of new or changed ones only, recognised by what changes with every edit (content
 * hash, last update, published version).
 */
export function listPublishedScenarios(db: DbOrTrx) {
  return db
    .selectFrom('scenarios')
    .select(['id', 'name', 'type', 'difficulty', 'content_hash', 'updated_at', 'current_version_id'])
    .where('deleted_at', 'is', null)
    .execute();
}

/** The most matches a picker sorts alone (see scenarioChoices). */
const CHOICES_SORTED_AT_MOST = 200;

/**
 * Up to `limit` published scenarios by name (scenarios_name_sort_idx) whose name holds the search: a picker's
 * choices, found as a list's page is.
 */
export async function scenarioChoices(db: DbOrTrx, search: string, limit: number) {
  const filter = { keptOnly: true, search };
  // A picker counts nothing: past CHOICES_SORTED_AT_MOST matches the text is common, and the name index walked
  // finds the first names holding it sooner than sorting every match would.
  const indexed = await indexedMatches(db, 'scenarios', filter, CHOICES_SORTED_AT_MOST);
  if (indexed?.length === 0) return [];
  const ids = await pageKeys(db, 'scenarios', filter, {
    indexed,
    page: 1,
    pageSize: limit,
    fewAtMost: CHOICES_SORTED_AT_MOST,
  });
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('scenarios')
          .select(['scenarios.id', 'scenarios.name'])
          .where('scenarios.id', 'in', ids)
          .execute();
  return byName(rows, ids);
}

/** The stored definitions of these scenarios. */
export function scenarioDefinitions(db: DbOrTrx, ids: readonly string[]) {
  return ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('scenarios').select(['id', 'definition']).where('id', 'in', ids).execute();
}

/** The run columns the run figures need, plus who and when. */
export type RunFiguresRow = Pick<
  Run,
  | 'id'
  | 'user_id'
  | 'scenario_id'
  | 'scenario_name'
  | 'step_count'
  | 'score_thousandths'
  | 'percent_base'
  | 'pending_reviews'
  | 'status'
  | 'started_at'
  | 'finished_at'
>;

/** The runs of these users on these scenarios (runs_user_started_idx, then the scenario filter). */
export function runsOf(
  db: DbOrTrx,
  userIds: readonly string[],
  scenarioIds: readonly string[],
): Promise<RunFiguresRow[]> {
  if (userIds.length === 0 || scenarioIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('runs')
    .select([
      'id',
      'user_id',
      'scenario_id',
      'scenario_name',
      'step_count',
      'score_thousandths',
      'percent_base',
      'pending_reviews',
      'status',
      'started_at',
      'finished_at',
    ])
    .where('user_id', 'in', [...userIds])
    .where('scenario_id', 'in', [...scenarioIds])
    .execute();
}

// ---- Learning paths ---------------------------------------------------------------------------------------

export async function insertPath(
  db: DbOrTrx,
  row: { id: string; name: string; description: string; unlock: 'sequential' | 'open'; createdBy: string; at: string },
) {
  await db
    .insertInto('learning_paths')
    .values({
      id: row.id,
      name: row.name,
      description: row.description,
      unlock: row.unlock,
      created_by: row.createdBy,
      created_at: row.at,
      updated_at: row.at,
      archived_at: null,
    })
    .execute();
}

export async function replacePathSteps(db: DbOrTrx, pathId: string, scenarioIds: readonly string[]) {
  await db.deleteFrom('learning_path_steps').where('path_id', '=', pathId).execute();
  await db
    .insertInto('learning_path_steps')
    .values(scenarioIds.map((scenarioId, position) => ({ path_id: pathId, position, scenario_id: scenarioId })))
    .execute();
}

/**
 * Changes the path and counts the edit; with `revision`, only while the path is at it (a stale edit changes nothing).
 * True when the row changed.
 */
export async function updatePath(
  db: DbOrTrx,
  id: string,
  fields: {
    name?: string;
    description?: string;
    unlock?: 'sequential' | 'open';
    archived_at?: string | null;
    updated_at: string;
  },
  revision?: number,
): Promise<boolean> {
  const result = await db
    .updateTable('learning_paths')
    .set((eb) => ({ ...fields, revision: eb('revision', '+', 1) }))
    .where('id', '=', id)
    .$if(revision !== undefined, (query) => query.where('revision', '=', revision!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function findPath(db: DbOrTrx, id: string) {
  return db.selectFrom('learning_paths').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A page of learning paths by name (learning_paths_name_sort_idx) with their step counts, and their total. */
export async function listPaths(db: DbOrTrx, list: ListPage) {
  const { ids, ...total } = await listPage(db, 'learning_paths', list);
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('learning_paths')
          .select((eb) => [
            'learning_paths.id',
            'learning_paths.name',
            'learning_paths.description',
            'learning_paths.unlock',
            'learning_paths.archived_at',
            'learning_paths.revision',
            eb
              .selectFrom('learning_path_steps')
              .select((inner) => inner.fn.countAll<number>().as('n'))
              .whereRef('learning_path_steps.path_id', '=', 'learning_paths.id')
              .as('scenario_count'),
          ])
          .where('learning_paths.id', 'in', ids)
          .execute();
  return { rows: byName(rows, ids), ...total };
}

/** The steps of these paths in order, with their scenarios' names. */
export function listPathSteps(db: DbOrTrx, pathIds: readonly string[]) {
  if (pathIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('learning_path_steps')
    .innerJoin('scenarios', 'scenarios.id', 'learning_path_steps.scenario_id')
    .select([
      'learning_path_steps.path_id',
      'learning_path_steps.position',
      'learning_path_steps.scenario_id',
      'scenarios.name as scenario_name',
      'scenarios.type',
      'scenarios.difficulty',
      'scenarios.deleted_at',
    ])
    .where('learning_path_steps.path_id', 'in', [...pathIds])
    .orderBy('learning_path_steps.path_id')
    .orderBy('learning_path_steps.position')
    .execute();
}

/** The paths not archived that hold this scenario (learning_path_steps_scenario_idx). */
export function pathsWithScenario(db: DbOrTrx, scenarioId: string) {
  return db
    .selectFrom('learning_path_steps')
    .innerJoin('learning_paths', 'learning_paths.id', 'learning_path_steps.path_id')
    .select(['learning_paths.id', 'learning_paths.name', 'learning_paths.unlock'])
    .where('learning_path_steps.scenario_id', '=', scenarioId)
    .where('learning_paths.archived_at', 'is', null)
    .distinct()
    .execute();
}

export function findPathNames(db: DbOrTrx, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('learning_paths')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .execute();
}

// ---- Assignments ------------------------------------------------------------------------------------------

export async function insertAssignments(db: DbOrTrx, rows: AssignmentRow[]) {
  if (rows.length === 0) return;
  await db.insertInto('assignments').values(rows).execute();
}

export function findAssignment(db: DbOrTrx, id: string) {
  return db.selectFrom('assignments').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function cancelAssignment(db: DbOrTrx, id: string, at: string) {
  await db.updateTable('assignments').set({ cancelled_at: at }).where('id', '=', id).execute();
}

/** A trainee's open assignments: their own and their (active) cohorts'. */
export function assignmentsOfUser(db: DbOrTrx, userId: string): Promise<AssignmentRow[]> {
  return db
    .selectFrom('assignments')
    .selectAll('assignments')
    .where('assignments.cancelled_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('assignments.user_id', '=', userId),
        eb(
          'assignments.cohort_id',
          'in',
          eb
            .selectFrom('cohort_members')
            .innerJoin('cohorts', 'cohorts.id', 'cohort_members.cohort_id')
            .select('cohort_members.cohort_id')
            .where('cohort_members.user_id', '=', userId)
            .where('cohorts.archived_at', 'is', null),
        ),
      ]),
    )
    .orderBy('assignments.created_at', 'desc')
    .orderBy('assignments.id')
    .execute();
}

export function assignmentsOfCohort(db: DbOrTrx, cohortId: string): Promise<AssignmentRow[]> {
  return db
    .selectFrom('assignments')
    .selectAll()
    .where('cohort_id', '=', cohortId)
    .where('cancelled_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Open assignments due before `until` (and after `since`) whose cohort, if any, is active. */
export function assignmentsDueBetween(db: DbOrTrx, since: string, until: string): Promise<AssignmentRow[]> {
  return db
    .selectFrom('assignments')
    .leftJoin('cohorts', 'cohorts.id', 'assignments.cohort_id')
    .selectAll('assignments')
    .where('assignments.cancelled_at', 'is', null)
    .where('assignments.due_at', 'is not', null)
    .where('assignments.due_at', '>', since)
    .where('assignments.due_at', '<=', until)
    .where('cohorts.archived_at', 'is', null)
    .execute();
}

/** Records notices not sent before; returns the user ids this call recorded (each notice goes out once). */
export async function recordNotices(
  db: DbOrTrx,
  assignmentId: string,
  userIds: readonly string[],
  notice: 'due_soon' | 'overdue' | 'overdue_admin',
  at: string,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .insertInto('assignment_notices')
    .values(userIds.map((userId) => ({ assignment_id: assignmentId, user_id: userId, notice, sent_at: at })))
    .onConflict((conflict) => conflict.columns(['assignment_id', 'user_id', 'notice']).doNothing())
    .returning('user_id')
    .execute();
  return rows.map((row) => row.user_id);
}

// ---- Certificates -----------------------------------------------------------------------------------------

/** Issues the certificate unless the user has one for the path; returns it when this call issued it. */
export async function insertCertificate(db: DbOrTrx, row: CertificateRow): Promise<boolean> {
  const inserted = await db
    .insertInto('certificates')
    .values(row)
    .onConflict((conflict) => conflict.columns(['user_id', 'path_id']).doNothing())
    .returning('id')
    .execute();
  return inserted.length > 0;
}

export function findCertificateOf(db: DbOrTrx, userId: string, pathId: string) {
  return db
    .selectFrom('certificates')
    .selectAll()
    .where('user_id', '=', userId)
    .where('path_id', '=', pathId)
    .executeTakeFirst();
}

export function findCertificate(db: DbOrTrx, id: string) {
  return db.selectFrom('certificates').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findCertificateByCode(db: DbOrTrx, code: string) {
  return db.selectFrom('certificates').selectAll().where('code', '=', code).executeTakeFirst();
}

export function listCertificates(db: DbOrTrx, filter: { userId?: string; pathId?: string }) {
  return db
    .selectFrom('certificates')
    .selectAll()
    .$if(filter.userId !== undefined, (query) => query.where('user_id', '=', filter.userId!))
    .$if(filter.pathId !== undefined, (query) => query.where('path_id', '=', filter.pathId!))
    .orderBy('issued_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function revokeCertificate(db: DbOrTrx, id: string, by: string, at: string) {
  await db.updateTable('certificates').set({ revoked_at: at, revoked_by: by }).where('id', '=', id).execute();
}

// ---- Analytics --------------------------------------------------------------------------------------------

/** First answers and right first answers per technique over the runs of a cohort's members (one grouped query). */
export async function tallyCohortTechniques(db: DbOrTrx, cohortId: string) {
  const rows = await db
    .selectFrom('run_decisions')
    .innerJoin('runs', 'runs.id', 'run_decisions.run_id')
    .innerJoin('cohort_members', 'cohort_members.user_id', 'runs.user_id')
    .select((eb) => [
      'run_decisions.technique',
      eb.fn.countAll<number>().as('attempts'),
      eb.fn.sum<number>('run_decisions.correct').as('correct'),
      sql<number>`count(distinct runs.user_id)`.as('trainees'),
    ])
    .where('cohort_members.cohort_id', '=', cohortId)
    .where('run_decisions.technique', 'is not', null)
    // Right first answers over first answers on scored steps, as the skill map counts them (docs/scoring.md).
    .where('run_decisions.first_submission', '=', 1)
    .where('run_decisions.scored', '=', 1)
    .groupBy('run_decisions.technique')
    .execute();
  return rows.map((row) => ({
    technique: row.technique!,
    attempts: Number(row.attempts),
    correct: Number(row.correct ?? 0),
    trainees: Number(row.trainees),
  }));
}

/** A scenario's versions that were ever published, newest first. */
export function publishedVersions(db: DbOrTrx, scenarioId: string) {
  return db
    .selectFrom('scenario_versions')
    .select(['id', 'number', 'state', 'published_at', 'definition'])
    .where('scenario_id', '=', scenarioId)
    .where('state', '!=', 'draft')
    .orderBy('number', 'desc')
    .execute();
}

/** A scenario's runs per version id (null: runs not pinned to a version), from runs_scenario_version_idx alone. */
export async function runCountsByVersion(db: DbOrTrx, scenarioId: string): Promise<Map<string | null, number>> {
  const rows = await db
    .selectFrom('runs')
    .select((eb) => ['version_id', eb.fn.countAll<number>().as('runs')])
    .where('scenario_id', '=', scenarioId)
    .groupBy('version_id')
    .execute();
  return new Map(rows.map((row) => [row.version_id, Number(row.runs)]));
}

/**
 * The runs of one version: those pinned to it, and with `unpinned` (the scenario's current version) those that
 * record no version, which play the current one. `limit`: how many of the newest are analysed.
 */
export interface VersionRuns {
  scenarioId: string;
  versionId: string;
  unpinned: boolean;
  limit: number;
}

/**
 * The newest `limit` runs of the version (id, status, score), as a subquery: each branch one range of
 * runs_scenario_version_idx (scenario_id, version_id, started_at) read newest first and cut at the limit, so its
 * cost stays the same however many runs the version has.
 */
function sampled(runs: VersionRuns) {
  const columns = sql`runs.id, runs.status, runs.percent_base, runs.score_thousandths, runs.started_at`;
  const newest = (version: ReturnType<typeof sql>) => sql`select * from (
      select ${columns} from runs where runs.scenario_id = ${runs.scenarioId} and ${version}
      order by runs.started_at desc, runs.id desc limit ${runs.limit}) newest`;
  const pinned = newest(sql`runs.version_id = ${runs.versionId}`);
  if (!runs.unpinned) return sql`(${pinned})`;
  return sql`(select * from (${pinned} union all ${newest(sql`runs.version_id is null`)}) both_kinds
    order by started_at desc, id desc limit ${runs.limit})`;
}

/** How many runs are analysed (at most the limit) and how many of them finished with a score. */
export async function countSampledRuns(db: DbOrTrx, runs: VersionRuns) {
  const row = await sql<{ analysed: number; finished: number | null }>`
    select count(*) as analysed,
      sum(case when s.status = 'completed' and s.percent_base > 0 then 1 else 0 end) as finished
    from ${sampled(runs)} s`.execute(db);
  return { analysed: Number(row.rows[0]?.analysed ?? 0), finished: Number(row.rows[0]?.finished ?? 0) };
}

/**
 * The version's runs, each with its group: 'top' or 'bottom' for the best and worst `groupSize` finished runs
 * by score percent (ties broken by id), null for the rest. A window function over the sampled runs.
 */
function groupedRuns(runs: VersionRuns, finished: number, groupSize: number) {
  return sql`(
    select ranked.id,
      case when ranked.rank_desc is null then null
           when ranked.rank_desc <= ${groupSize} then 'top'
           when ranked.rank_desc > ${finished - groupSize} then 'bottom'
           else null end as grp
    from (
      select runs.id,
        case when runs.status = 'completed' and runs.percent_base > 0 then
          row_number() over (
            partition by case when runs.status = 'completed' and runs.percent_base > 0 then 1 else 0 end
            order by runs.score_thousandths * 1.0 / runs.percent_base desc, runs.id)
        end as rank_desc
      from ${sampled(runs)} runs
    ) ranked
  )`;
}

export interface StepFiguresRow {
  step_id: string;
  kind: string;
  reached: number;
  answered: number;
  mean_credit: number | null;
  top_credit: number | null;
  bottom_credit: number | null;
}

/** Per step: runs that reached it, first answers, mean credit overall and in the top and bottom groups. */
export async function stepFigures(db: DbOrTrx, runs: VersionRuns, finished: number, groupSize: number) {
  const rows = await sql<StepFiguresRow>`
    select d.step_id, max(d.kind) as kind,
      count(distinct d.run_id) as reached,
      sum(case when d.first_submission = 1 then 1 else 0 end) as answered,
      avg(case when d.first_submission = 1 and d.scored = 1 then d.credit_thousandths end) as mean_credit,
      avg(case when d.first_submission = 1 and d.scored = 1 and g.grp = 'top' then d.credit_thousandths end) as top_credit,
      avg(case when d.first_submission = 1 and d.scored = 1 and g.grp = 'bottom' then d.credit_thousandths end) as bottom_credit
    from ${groupedRuns(runs, finished, groupSize)} g
    join run_decisions d on d.run_id = g.id
    group by d.step_id`.execute(db);
  return rows.rows.map((row) => ({
    stepId: row.step_id,
    kind: row.kind,
    reached: Number(row.reached),
    answered: Number(row.answered ?? 0),
    meanCredit: row.mean_credit === null ? null : Number(row.mean_credit) / 1000,
    topCredit: row.top_credit === null ? null : Number(row.top_credit) / 1000,
    bottomCredit: row.bottom_credit === null ? null : Number(row.bottom_credit) / 1000,
  }));
}

/** How often each option of each choice step was picked first, overall and by the top group. */
export async function optionChoices(db: DbOrTrx, runs: VersionRuns, finished: number, groupSize: number) {
  const rows = await sql<{ step_id: string; option_index: number; chosen: number; by_top: number }>`
    select d.step_id, d.option_index, count(*) as chosen,
      sum(case when g.grp = 'top' then 1 else 0 end) as by_top
    from ${groupedRuns(runs, finished, groupSize)} g
    join run_decisions d on d.run_id = g.id
    where d.first_submission = 1 and d.kind = 'choice' and d.option_index >= 0
    group by d.step_id, d.option_index`.execute(db);
  return rows.rows.map((row) => ({
    stepId: row.step_id,
    optionIndex: Number(row.option_index),
    chosen: Number(row.chosen),
    byTop: Number(row.by_top ?? 0),
  }));
}

/** The median time of first answers per step (the middle one, or the mean of the middle two). */
export async function medianTimes(db: DbOrTrx, runs: VersionRuns) {
  const rows = await sql<{ step_id: string; median: number }>`
    select step_id, avg(time_ms) as median from (
      select d.step_id, d.time_ms,
        row_number() over (partition by d.step_id order by d.time_ms) as rn,
        count(*) over (partition by d.step_id) as cnt
      from ${sampled(runs)} r join run_decisions d on d.run_id = r.id
      where d.first_submission = 1 and d.time_ms is not null
    ) ordered
    where rn in ((cnt + 1) / 2, (cnt + 2) / 2)
    group by step_id`.execute(db);
  return new Map(rows.rows.map((row) => [row.step_id, Math.round(Number(row.median))]));
}
