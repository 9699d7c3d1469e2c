import { randomBytes, randomUUID } from 'node:crypto';
import {
  CHOICES_LIMIT,
  pathStepStates,
  type Assignment,
  type Choices,
  type Certificate,
  type CertificateList,
  type CohortList,
  type CohortSummary,
  type CreateAssignmentInput,
  type MyAssignments,
  type PathDetail,
  type PathList,
  type PathSummary,
  type programmeListQuerySchema,
  type ProgrammePerson,
  type TraineeSearch,
  type UpdateCohortInput,
  type UpdatePathInput,
  type pathInputSchema,
} from '@tradecraft/shared';
import type { z } from 'zod';
import { nowIso } from '../../clock';
import type { Db, DbOrTrx } from '../../db/database';
import type { User } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { insertNotifications, notifyRecipients } from '../notifications/notifications.service';
import { findUserById } from '../users/users.service';
import { assignmentProgress, outcomesByUser } from './assignment-work';
import {
  addMembers,
  assignmentsOfUser,
  cancelAssignment,
  countMembers,
  findAssignment,
  findCertificate,
  findCertificateByCode,
  findCertificateOf,
  findCohort,
  findPath,
  findPathNames,
  findPeople,
  findScenarioRows,
  insertAssignments,
  insertCertificate,
  insertCohort,
  insertPath,
  listCertificates,
  listCohorts,
  findCohortSummary,
  scenarioChoices,
  listPaths,
  listPathSteps,
  membersOfCohorts,
  removeMembers,
  replacePathSteps,
  revokeCertificate,
  runsOf,
  pathsWithScenario,
  searchTrainees,
  updateCohort,
  updatePath,
  type AssignmentRow,
  type CertificateRow,
  type PersonRow,
} from './programmes.repository';

export const PROGRAMME_MESSAGES = {
  noCohort: 'No cohort has that id.',
  noPath: 'No learning path has that id.',
  noAssignment: 'No assignment has that id.',
  noCertificate: 'No certificate has that id.',
  archivedCohort: 'This cohort is archived: restore it first.',
  archivedPath: 'This learning path is archived: restore it first.',
  dueInPast: 'The due date is in the past: choose a later one.',
  notYours: 'You can only see your own certificates.',
  stalePath: 'Someone changed this learning path since you opened it: reload it and make your change again.',
  alreadyRevoked: 'This certificate is already revoked.',
} as const;

const SCREEN = 'Cohorts';
/** A programmes list's query, as the route parsed it. */
type ProgrammeListOptions = z.output<typeof programmeListQuerySchema>;
const TRAINEE_SEARCH_LIMIT = 50;
const personOf = (row: PersonRow): ProgrammePerson => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
});
const displayName = (user: Pick<User, 'first_name' | 'last_name' | 'email'>) =>
  `${user.first_name} ${user.last_name}`.trim() || user.email;

// ---- Cohorts ----------------------------------------------------------------------------------------------

type CohortRow = NonNullable<Awaited<ReturnType<typeof findCohortSummary>>>;
const cohortSummaryOf = (row: CohortRow): CohortSummary => ({
  id: row.id,
  name: row.name,
  memberCount: Number(row.member_count ?? 0),
  assignmentCount: Number(row.assignment_count ?? 0),
  archived: row.archived_at !== null,
  createdAt: row.created_at,
});

/** A page of cohorts by name, searched by name (docs/operations.md, "Searching and counting"). */
export async function cohortList(db: Db, query: ProgrammeListOptions): Promise<CohortList> {
  const { rows, total, totalIsLowerBound } = await listCohorts(db, {
    includeArchived: query.archived,
    search: query.search,
    page: query.page,
    pageSize: query.pageSize,
  });
  return { items: rows.map(cohortSummaryOf), total, totalIsLowerBound, page: query.page, pageSize: query.pageSize };
}

async function cohortSummary(db: DbOrTrx, id: string): Promise<CohortSummary> {
  const row = await findCohortSummary(db, id);
  if (!row) throw notFound(PROGRAMME_MESSAGES.noCohort);
  return cohortSummaryOf(row);
}

export async function createCohort(db: Db, admin: User, name: string): Promise<CohortSummary> {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await insertCohort(trx, { id, name, createdBy: admin.id, at: nowIso() });
    await recordAudit(trx, { actor: admin.email, action: 'create cohort', details: name, screen: SCREEN });
  });
  return cohortSummary(db, id);
}

export async function changeCohort(db: Db, admin: User, id: string, input: UpdateCohortInput): Promise<CohortSummary> {
  await db.transaction().execute(async (trx) => {
    const cohort = await findCohort(trx, id);
    if (!cohort) throw notFound(PROGRAMME_MESSAGES.noCohort);
    const at = nowIso();
    await updateCohort(trx, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.archived !== undefined ? { archived_at: input.archived ? (cohort.archived_at ?? at) : null } : {}),
      updated_at: at,
    });
    const what = [
      input.name !== undefined && input.name !== cohort.name ? `renamed "${cohort.name}" to "${input.name}"` : null,
      input.archived === true ? `archived "${cohort.name}"` : null,
      input.archived === false ? `restored "${cohort.name}"` : null,
    ].filter(Boolean);
    await recordAudit(trx, {
      actor: admin.email,
      action: 'update cohort',
      details: what.join('; ') || cohort.name,
      screen: SCREEN,
    });
  });
  return cohortSummary(db, id);
}

/** The trainees among these ids, or 404 naming the first id that is no trainee (nothing is written then). */
async function requireTrainees(db: DbOrTrx, userIds: readonly string[]): Promise<PersonRow[]> {
  const unique = [...new Set(userIds)];
  const found = await findPeople(db, unique);
  const byId = new Map(found.map((row) => [row.id, row]));
  for (const id of unique) {
    const person = byId.get(id);
    if (!person) throw notFound(`No user has the id "${id}".`);
    if (person.role !== 'student')
      throw badRequest(`${person.email} is not a trainee: only trainees join cohorts and get assignments.`);
  }
  return unique.map((id) => byId.get(id)!);
}

export async function changeMembers(
  db: Db,
  admin: User,
  cohortId: string,
  userIds: readonly string[],
  change: 'add' | 'remove',
): Promise<{ changed: number; memberCount: number }> {
  let changed = 0;
  await db.transaction().execute(async (trx) => {
    const cohort = await findCohort(trx, cohortId);
    if (!cohort) throw notFound(PROGRAMME_MESSAGES.noCohort);
    if (cohort.archived_at) throw badRequest(PROGRAMME_MESSAGES.archivedCohort);
    const people = change === 'add' ? await requireTrainees(trx, userIds) : [];
    changed =
      change === 'add'
        ? await addMembers(
            trx,
            cohortId,
            people.map((person) => person.id),
            nowIso(),
          )
        : await removeMembers(trx, cohortId, [...new Set(userIds)]);
    await recordAudit(trx, {
      actor: admin.email,
      action: change === 'add' ? 'add cohort members' : 'remove cohort members',
      details: `${cohort.name}: ${changed} ${changed === 1 ? 'trainee' : 'trainees'}`,
      screen: SCREEN,
    });
  });
  return { changed, memberCount: await countMembers(db, cohortId) };
}

export async function findTrainees(db: Db, search: string): Promise<TraineeSearch> {
  const rows = await searchTrainees(db, search, TRAINEE_SEARCH_LIMIT + 1);
  return { items: rows.slice(0, TRAINEE_SEARCH_LIMIT).map(personOf), more: rows.length > TRAINEE_SEARCH_LIMIT };
}

// ---- Learning paths ---------------------------------------------------------------------------------------

async function requirePublishedScenarios(db: DbOrTrx, ids: readonly string[]): Promise<void> {
  if (new Set(ids).size !== ids.length) throw badRequest('A scenario appears twice in the path.');
  const rows = await findScenarioRows(db, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of ids) {
    const row = byId.get(id);
    if (!row || row.deleted_at !== null) throw notFound(`No published scenario has the id "${id}".`);
  }
}

const pathSummaryOf = (row: Awaited<ReturnType<typeof listPaths>>['rows'][number]): PathSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  unlock: row.unlock,
  scenarioCount: Number(row.scenario_count ?? 0),
  archived: row.archived_at !== null,
  revision: Number(row.revision),
});

/** A page of learning paths by name, searched by name; only admins see the archived ones. */
export async function pathList(db: Db, viewer: User, query: ProgrammeListOptions): Promise<PathList> {
  const { rows, total, totalIsLowerBound } = await listPaths(db, {
    includeArchived: query.archived && viewer.role === 'admin',
    search: query.search,
    page: query.page,
    pageSize: query.pageSize,
  });
  return { items: rows.map(pathSummaryOf), total, totalIsLowerBound, page: query.page, pageSize: query.pageSize };
}

/** A picker's published scenarios: the first CHOICES_LIMIT by name holding the search. */
export async function findScenarioChoices(db: Db, search: string): Promise<Choices> {
  const rows = await scenarioChoices(db, search, CHOICES_LIMIT + 1);
  return { items: rows.slice(0, CHOICES_LIMIT), more: rows.length > CHOICES_LIMIT };
}

export async function createPath(db: Db, admin: User, input: z.output<typeof pathInputSchema>): Promise<PathDetail> {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await requirePublishedScenarios(trx, input.scenarioIds);
    await insertPath(trx, { id, ...input, createdBy: admin.id, at: nowIso() });
    await replacePathSteps(trx, id, input.scenarioIds);
    await recordAudit(trx, {
      actor: admin.email,
      action: 'create learning path',
      details: input.name,
      screen: 'Learning Paths',
    });
  });
  return pathDetail(db, admin, id);
}

/**
 * Edits a path: name, description, unlock rule, scenarios (added, removed, reordered), archived. With `revision`,
 * a path changed since (another admin) is refused with 409 and nothing is written. Progress is never stored, so it
 * follows the new steps at once; certificates already issued stay valid (docs/programmes.md, "Editing a path").
 */
export async function changePath(db: Db, admin: User, id: string, input: UpdatePathInput): Promise<PathDetail> {
  await db.transaction().execute(async (trx) => {
    const path = await findPath(trx, id);
    if (!path) throw notFound(PROGRAMME_MESSAGES.noPath);
    if (input.revision !== undefined && input.revision !== path.revision) throw conflict(PROGRAMME_MESSAGES.stalePath);
    const before = input.scenarioIds ? (await listPathSteps(trx, [id])).map((step) => step.scenario_id) : [];
    if (input.scenarioIds) {
      await requirePublishedScenarios(trx, input.scenarioIds);
      await replacePathSteps(trx, id, input.scenarioIds);
    }
    const at = nowIso();
    const changed = await updatePath(
      trx,
      id,
      {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.unlock !== undefined ? { unlock: input.unlock } : {}),
        ...(input.archived !== undefined ? { archived_at: input.archived ? (path.archived_at ?? at) : null } : {}),
        updated_at: at,
      },
      input.revision,
    );
    if (!changed) throw conflict(PROGRAMME_MESSAGES.stalePath);
    await recordAudit(trx, {
      actor: admin.email,
      action: 'update learning path',
      details: pathChanges(path, input, before).join('; ') || path.name,
      screen: 'Learning Paths',
    });
  });
  return pathDetail(db, admin, id);
}

/** What an edit changes, in words for the audit log. */
function pathChanges(
  path: { name: string; description: string; unlock: string; archived_at: string | null },
  input: UpdatePathInput,
  scenariosBefore: readonly string[],
): string[] {
  const after = input.scenarioIds ?? scenariosBefore;
  const added = after.filter((scenarioId) => !scenariosBefore.includes(scenarioId));
  const removed = scenariosBefore.filter((scenarioId) => !after.includes(scenarioId));
  const kept = after.filter((scenarioId) => scenariosBefore.includes(scenarioId));
  const reordered = kept.join() !== scenariosBefore.filter((scenarioId) => after.includes(scenarioId)).join();
  return [
    input.name !== undefined && input.name !== path.name ? `renamed "${path.name}" to "${input.name}"` : null,
    input.description !== undefined && input.description !== path.description ? 'description changed' : null,
    input.unlock !== undefined && input.unlock !== path.unlock ? `unlocking: ${input.unlock}` : null,
    added.length > 0 ? `scenarios added: ${added.join(', ')}` : null,
    removed.length > 0 ? `scenarios removed: ${removed.join(', ')}` : null,
    input.scenarioIds && reordered ? 'scenarios reordered' : null,
    input.archived === true && path.archived_at === null ? `archived "${path.name}"` : null,
    input.archived === false && path.archived_at !== null ? `restored "${path.name}"` : null,
  ].filter((entry): entry is string => entry !== null);
}

function certificateOf(row: CertificateRow): Certificate {
  return {
    id: row.id,
    code: row.code,
    holderName: row.holder_name,
    pathId: row.path_id,
    pathName: row.path_name,
    issuedAt: row.issued_at,
    revokedAt: row.revoked_at,
    verifyPath: `/verify/${row.code}`,
  };
}

/** Which of the path's steps the user has passed (whenever), from their runs of its scenarios. */
async function pathProgress(db: DbOrTrx, userId: string, pathId: string) {
  const steps = await listPathSteps(db, [pathId]);
  const runs = await runsOf(
    db,
    [userId],
    steps.map((step) => step.scenario_id),
  );
  const outcomes = outcomesByUser(runs).get(userId);
  const passed = steps.map((step) => (outcomes?.get(step.scenario_id) ?? []).some((run) => run.passed));
  return { steps, outcomes, passed, complete: steps.length > 0 && passed.every(Boolean) };
}

/** The path's scenarios as a certificate lists them: in path order, each with the holder's best percent. */
export async function certificateScenarios(
  db: Db,
  certificate: Pick<CertificateRow, 'user_id' | 'path_id'>,
): Promise<Array<{ name: string; bestPercent: number | null }>> {
  const { steps, outcomes } = await pathProgress(db, certificate.user_id, certificate.path_id);
  return steps.map((step) => {
    const percents = (outcomes?.get(step.scenario_id) ?? [])
      .map((run) => run.percent)
      .filter((percent): percent is number => percent !== null);
    return { name: step.scenario_name, bestPercent: percents.length > 0 ? Math.max(...percents) : null };
  });
}

/**
 * The path with the viewer's progress. A certificate is issued when the run that completes the path ends
 * (`awardCertificates`); reading the path issues it too when that was missed (a path edited so that the viewer
 * has now passed every step).
 */
export async function pathDetail(db: Db, viewer: User, id: string): Promise<PathDetail> {
  const path = await findPath(db, id);
  if (!path || (path.archived_at !== null && viewer.role !== 'admin')) throw notFound(PROGRAMME_MESSAGES.noPath);
  const { steps, outcomes, passed, complete } = await pathProgress(db, viewer.id, id);
  const states = pathStepStates(path.unlock, passed);
  let certificate = await findCertificateOf(db, viewer.id, id);
  if (!certificate && complete && path.archived_at === null) certificate = await issueCertificate(db, viewer, path);
  return {
    ...pathSummaryOf({ ...path, scenario_count: steps.length }),
    steps: steps.map((step, index) => {
      const percents = (outcomes?.get(step.scenario_id) ?? [])
        .map((run) => run.percent)
        .filter((percent): percent is number => percent !== null);
      return {
        position: step.position,
        scenarioId: step.scenario_id,
        scenarioName: step.scenario_name,
        difficulty: step.difficulty,
        type: step.type,
        available: step.deleted_at === null,
        state: states[index]!,
        bestPercent: percents.length > 0 ? Math.max(...percents) : null,
      };
    }),
    passedCount: passed.filter(Boolean).length,
    certificate: certificate ? certificateOf(certificate) : null,
  };
}

/**
 * A run of this scenario settled (plugins/run-events.ts): for each path (not archived) holding the scenario that
 * the user has now completed and holds no certificate for, issue it and ring their bell.
 */
export async function awardCertificates(db: Db, userId: string, scenarioId: string): Promise<void> {
  const candidates = await pathsWithScenario(db, scenarioId);
  if (candidates.length === 0) return;
  let user: User | undefined;
  for (const path of candidates) {
    if (await findCertificateOf(db, userId, path.id)) continue;
    if (!(await pathProgress(db, userId, path.id)).complete) continue;
    user ??= await findUserById(db, userId);
    if (!user) return;
    await issueCertificate(db, user, path);
  }
}

async function issueCertificate(db: Db, user: User, path: { id: string; name: string }): Promise<CertificateRow> {
  const row: CertificateRow = {
    id: randomUUID(),
    code: randomBytes(12).toString('base64url'),
    user_id: user.id,
    path_id: path.id,
    holder_name: displayName(user),
    path_name: path.name,
    issued_at: nowIso(),
    revoked_at: null,
    revoked_by: null,
  };
  let issued = false;
  await db.transaction().execute(async (trx) => {
    issued = await insertCertificate(trx, row);
    if (issued)
      await insertNotifications(trx, [user.id], {
        kind: 'certificate',
        message: `Certificate earned: you completed the learning path "${path.name}". Download it or share its verification link.`,
        link: `/paths/${path.id}`,
        subjectId: row.id,
      });
  });
  if (issued) await notifyRecipients(db, [user.id]);
  return (await findCertificateOf(db, user.id, path.id))!;
}

export async function myCertificates(db: Db, viewer: User): Promise<CertificateList> {
  return { items: (await listCertificates(db, { userId: viewer.id })).map(certificateOf) };
}

export async function pathCertificates(db: Db, pathId: string): Promise<CertificateList> {
  if (!(await findPath(db, pathId))) throw notFound(PROGRAMME_MESSAGES.noPath);
  return { items: (await listCertificates(db, { pathId })).map(certificateOf) };
}

/** A certificate its holder or an admin may download. */
export async function readableCertificate(db: Db, viewer: User, id: string): Promise<CertificateRow> {
  const row = await findCertificate(db, id);
  if (!row) throw notFound(PROGRAMME_MESSAGES.noCertificate);
  if (row.user_id !== viewer.id && viewer.role !== 'admin') throw notFound(PROGRAMME_MESSAGES.noCertificate);
  return row;
}

export async function revoke(db: Db, admin: User, id: string): Promise<Certificate> {
  await db.transaction().execute(async (trx) => {
    const row = await findCertificate(trx, id);
    if (!row) throw notFound(PROGRAMME_MESSAGES.noCertificate);
    if (row.revoked_at) throw badRequest(PROGRAMME_MESSAGES.alreadyRevoked);
    await revokeCertificate(trx, id, admin.id, nowIso());
    await recordAudit(trx, {
      actor: admin.email,
      action: 'revoke certificate',
      details: `${row.holder_name}: ${row.path_name} (${row.code})`,
      screen: 'Learning Paths',
    });
  });
  return certificateOf((await findCertificate(db, id))!);
}

export async function verify(db: Db, code: string) {
  const row = await findCertificateByCode(db, code);
  if (!row) return { status: 'unknown' as const, holderName: null, pathName: null, issuedAt: null, revokedAt: null };
  return {
    status: row.revoked_at ? ('revoked' as const) : ('genuine' as const),
    holderName: row.holder_name,
    pathName: row.path_name,
    issuedAt: row.issued_at,
    revokedAt: row.revoked_at,
  };
}

// ---- Assignments ------------------------------------------------------------------------------------------

/** Names and scenario lists of the targets of these assignments. */
export async function targetsOf(db: DbOrTrx, rows: readonly AssignmentRow[]) {
  const scenarioIds = [...new Set(rows.flatMap((row) => (row.scenario_id ? [row.scenario_id] : [])))];
  const pathIds = [...new Set(rows.flatMap((row) => (row.path_id ? [row.path_id] : [])))];
  const [scenarios, paths, steps] = await Promise.all([
    findScenarioRows(db, scenarioIds),
    findPathNames(db, pathIds),
    listPathSteps(db, pathIds),
  ]);
  const scenarioNames = new Map(scenarios.map((row) => [row.id, row.name]));
  for (const step of steps) scenarioNames.set(step.scenario_id, step.scenario_name);
  const pathNames = new Map(paths.map((row) => [row.id, row.name]));
  const pathScenarios = new Map<string, string[]>();
  for (const step of steps)
    pathScenarios.set(step.path_id, [...(pathScenarios.get(step.path_id) ?? []), step.scenario_id]);
  return {
    scenarioNames,
    nameOf: (row: AssignmentRow) =>
      row.scenario_id
        ? (scenarioNames.get(row.scenario_id) ?? row.scenario_id)
        : (pathNames.get(row.path_id!) ?? row.path_id!),
    scenariosOf: (row: AssignmentRow) =>
      row.scenario_id ? [row.scenario_id] : (pathScenarios.get(row.path_id!) ?? []),
  };
}

async function assignmentViews(db: DbOrTrx, rows: readonly AssignmentRow[]): Promise<Assignment[]> {
  const targets = await targetsOf(db, rows);
  const cohortIds = [...new Set(rows.flatMap((row) => (row.cohort_id ? [row.cohort_id] : [])))];
  const cohorts = new Map<string, string>();
  for (const cohortId of cohortIds) {
    const cohort = await findCohort(db, cohortId);
    if (cohort) cohorts.set(cohortId, cohort.name);
  }
  const people = new Map(
    (
      await findPeople(db, [
        ...new Set(rows.flatMap((row) => [row.user_id, row.assigned_by].filter((id): id is string => id !== null))),
      ])
    ).map((row) => [row.id, row]),
  );
  return rows.map((row) => {
    const trainee = row.user_id ? people.get(row.user_id) : undefined;
    const by = row.assigned_by ? people.get(row.assigned_by) : undefined;
    return {
      id: row.id,
      kind: row.scenario_id ? ('scenario' as const) : ('path' as const),
      targetId: row.scenario_id ?? row.path_id!,
      targetName: targets.nameOf(row),
      cohort: row.cohort_id ? { id: row.cohort_id, name: cohorts.get(row.cohort_id) ?? '' } : null,
      trainee: trainee ? personOf(trainee) : null,
      note: row.note,
      dueAt: row.due_at,
      assignedBy: by ? by.email : null,
      createdAt: row.created_at,
    };
  });
}

export async function createAssignments(
  db: Db,
  admin: User,
  input: Omit<CreateAssignmentInput, 'note'> & { note: string },
): Promise<{ items: Assignment[] }> {
  const at = nowIso();
  if (input.dueAt && Date.parse(input.dueAt) <= Date.parse(at)) throw badRequest(PROGRAMME_MESSAGES.dueInPast);
  let rows: AssignmentRow[] = [];
  let recipients: string[] = [];
  let targetName = '';
  await db.transaction().execute(async (trx) => {
    if (input.scenarioId) {
      await requirePublishedScenarios(trx, [input.scenarioId]);
    } else {
      const path = await findPath(trx, input.pathId!);
      if (!path) throw notFound(PROGRAMME_MESSAGES.noPath);
      if (path.archived_at) throw badRequest(PROGRAMME_MESSAGES.archivedPath);
    }
    const base = {
      scenario_id: input.scenarioId ?? null,
      path_id: input.pathId ?? null,
      note: input.note,
      due_at: input.dueAt ? new Date(input.dueAt).toISOString() : null,
      assigned_by: admin.id,
      created_at: at,
      cancelled_at: null,
    };
    if (input.cohortId) {
      const cohort = await findCohort(trx, input.cohortId);
      if (!cohort) throw notFound(PROGRAMME_MESSAGES.noCohort);
      if (cohort.archived_at) throw badRequest(PROGRAMME_MESSAGES.archivedCohort);
      rows = [{ id: randomUUID(), ...base, cohort_id: cohort.id, user_id: null }];
      recipients = (await membersOfCohorts(trx, [cohort.id])).map((member) => member.user_id);
    } else {
      const trainees = await requireTrainees(trx, input.userIds!);
      rows = trainees.map((trainee) => ({ id: randomUUID(), ...base, cohort_id: null, user_id: trainee.id }));
      recipients = trainees.map((trainee) => trainee.id);
    }
    await insertAssignments(trx, rows);
    const targets = await targetsOf(trx, rows);
    targetName = targets.nameOf(rows[0]!);
    const due = base.due_at ? `, due ${base.due_at.slice(0, 16).replace('T', ' ')} UTC` : '';
    await insertNotifications(trx, recipients, {
      kind: 'assignment',
      message: `New assignment: ${input.scenarioId ? 'the scenario' : 'the learning path'} "${targetName}"${due}.`,
      link: '/dashboard',
    });
    await recordAudit(trx, {
      actor: admin.email,
      action: 'assign training',
      details: `${targetName} to ${input.cohortId ? 'a cohort' : `${rows.length} trainee(s)`}${due}`,
      screen: SCREEN,
    });
  });
  await notifyRecipients(db, recipients);
  return { items: await assignmentViews(db, rows) };
}

export async function cancel(db: Db, admin: User, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findAssignment(trx, id);
    if (!row || row.cancelled_at) throw notFound(PROGRAMME_MESSAGES.noAssignment);
    await cancelAssignment(trx, id, nowIso());
    await recordAudit(trx, { actor: admin.email, action: 'cancel assignment', details: row.id, screen: SCREEN });
  });
}

/** The trainee's own assignments (their own and their cohorts'), undone first, then by due date. */
export async function myAssignments(db: Db, viewer: User): Promise<MyAssignments> {
  const now = nowIso();
  const rows = await assignmentsOfUser(db, viewer.id);
  const views = await assignmentViews(db, rows);
  const targets = await targetsOf(db, rows);
  const scenarioIds = [...new Set(rows.flatMap((row) => targets.scenariosOf(row)))];
  const outcomes = outcomesByUser(await runsOf(db, [viewer.id], scenarioIds)).get(viewer.id);
  const items = rows.map((row, index) => {
    const progress = assignmentProgress(row, targets.scenariosOf(row), outcomes, now);
    return {
      ...views[index]!,
      status: progress.status,
      progress: { passed: progress.passed, total: progress.total },
      bestPercent: progress.bestPercent,
      next: progress.nextScenarioId
        ? {
            scenarioId: progress.nextScenarioId,
            scenarioName: targets.scenarioNames.get(progress.nextScenarioId) ?? progress.nextScenarioId,
            resume: progress.resume,
          }
        : null,
    };
  });
  const rank = { overdue: 0, in_progress: 1, awaiting_review: 2, not_started: 3, failed: 4, passed: 5 } as const;
  items.sort(
    (a, b) =>
      rank[a.status] - rank[b.status] ||
      (a.dueAt ?? '9999').localeCompare(b.dueAt ?? '9999') ||
      b.createdAt.localeCompare(a.createdAt),
  );
  return { items, now };
}

export { assignmentViews, personOf };
