import type {
  CohortDetail,
  ItemAnalysis,
  MyAssignments,
  PathDetail,
  RunState,
  ScenarioDefinition,
} from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import type { User } from '../../db/schema';
import { insertRun, insertScenario } from '../progress/progress.fixtures';
import { answerFor } from '../runs/answers.fixture';
import { checkDueAssignments } from './notices.service';
import { countSampledRuns } from './programmes.repository';

/** Minutes since 2026-01-01 of a moment `offsetMs` from now (the fixtures' clock). */
const minuteFromNow = (offsetMs = 0) => Math.ceil((Date.now() + offsetMs - Date.UTC(2026, 0, 1)) / 60_000);

describe('training programmes', () => {
  let t: TestApp;
  let admin: { user: User; cookie: string };
  let alice: { user: User; cookie: string };
  let bob: { user: User; cookie: string };
  let carol: { user: User; cookie: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.userWithSession('admin');
    alice = await t.userWithSession('student', { first_name: 'Alice', last_name: 'Archer' });
    bob = await t.userWithSession('student', { first_name: 'Bob', last_name: 'Baker' });
    carol = await t.userWithSession('student', { first_name: 'Carol', last_name: 'Cole' });
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    cookie = admin.cookie,
  ) => t.request({ method, url, body, cookie });
  const count = async (table: 'cohorts' | 'cohort_members' | 'assignments' | 'learning_paths' | 'notifications') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  async function cohortWith(name: string, members: User[]): Promise<string> {
    const created = await call('POST', '/api/cohorts', { name });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    if (members.length > 0) {
      const added = await call('POST', `/api/cohorts/${id}/members/add`, { userIds: members.map((m) => m.id) });
      expect(added.statusCode, added.body).toBe(200);
    }
    return id;
  }
  const mine = async (cookie: string) =>
    (await call('GET', '/api/assignments/mine', undefined, cookie)).json() as MyAssignments;

  describe('cohorts', () => {
    it('creates, renames, archives and restores a cohort, audited', async () => {
      const created = await call('POST', '/api/cohorts', { name: '  SOC tier 1  ' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ name: 'SOC tier 1', memberCount: 0, archived: false });
      const id = created.json().id;
      expect((await call('PATCH', `/api/cohorts/${id}`, { name: 'SOC tier one' })).json()).toMatchObject({
        name: 'SOC tier one',
      });
      expect((await call('PATCH', `/api/cohorts/${id}`, { archived: true })).json()).toMatchObject({ archived: true });
      const listed = (await call('GET', '/api/cohorts')).json().items as { id: string }[];
      expect(listed.some((item) => item.id === id)).toBe(false);
      const all = (await call('GET', '/api/cohorts?archived=true')).json().items as { id: string }[];
      expect(all.some((item) => item.id === id)).toBe(true);
      expect((await call('PATCH', `/api/cohorts/${id}`, { archived: false })).json()).toMatchObject({
        archived: false,
      });
      const audit = await t.db.selectFrom('audit_log').select('action').where('actor', '=', admin.user.email).execute();
      expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['create cohort', 'update cohort']));
    });

    it('refuses bad input with a readable message and writes nothing', async () => {
      const before = await count('cohorts');
      for (const body of [{}, { name: '' }, { name: 42 }, { name: 'x'.repeat(121) }]) {
        const response = await call('POST', '/api/cohorts', body);
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toMatch(/\w/);
      }
      expect((await call('PATCH', '/api/cohorts/nope', { name: 'A' })).statusCode).toBe(404);
      expect((await call('PATCH', '/api/cohorts/nope', {})).statusCode).toBe(400);
      expect(await count('cohorts')).toBe(before);
    });

    it('adds and removes members in bulk, found by search', async () => {
      const id = await cohortWith('Search team', []);
      const found = (await call('GET', `/api/cohorts/trainees?search=${encodeURIComponent('baker')}`)).json();
      expect(found.items.map((p: { id: string }) => p.id)).toContain(bob.user.id);
      expect(found.items.map((p: { id: string }) => p.id)).not.toContain(alice.user.id);
      const added = await call('POST', `/api/cohorts/${id}/members/add`, {
        userIds: [alice.user.id, bob.user.id, bob.user.id],
      });
      expect(added.json()).toEqual({ changed: 2, memberCount: 2 });
      const again = await call('POST', `/api/cohorts/${id}/members/add`, { userIds: [alice.user.id] });
      expect(again.json()).toEqual({ changed: 0, memberCount: 2 });
      const removed = await call('POST', `/api/cohorts/${id}/members/remove`, {
        userIds: [bob.user.id, carol.user.id],
      });
      expect(removed.json()).toEqual({ changed: 1, memberCount: 1 });
    });

    it('adds nobody when one id is unknown or not a trainee', async () => {
      const id = await cohortWith('All or nothing', []);
      const before = await count('cohort_members');
      const unknown = await call('POST', `/api/cohorts/${id}/members/add`, { userIds: [alice.user.id, 'ghost'] });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe('No user has the id "ghost".');
      const notTrainee = await call('POST', `/api/cohorts/${id}/members/add`, {
        userIds: [alice.user.id, admin.user.id],
      });
      expect(notTrainee.statusCode).toBe(400);
      expect(notTrainee.json().error).toMatch(/is not a trainee/);
      expect((await call('POST', `/api/cohorts/${id}/members/add`, { userIds: 'x' })).statusCode).toBe(400);
      expect((await call('POST', `/api/cohorts/${id}/members/add`, { userIds: [] })).statusCode).toBe(400);
      expect((await call('POST', '/api/cohorts/nope/members/add', { userIds: [alice.user.id] })).statusCode).toBe(404);
      expect(await count('cohort_members')).toBe(before);
    });

    it('is for admins only: a trainee gets 403 on every cohort and analytics route', async () => {
      const id = await cohortWith('Private', [bob.user]);
      const scenario = await insertScenario(t.db);
      for (const [method, url, body] of [
        ['GET', '/api/cohorts'],
        ['POST', '/api/cohorts', { name: 'Mine' }],
        ['GET', `/api/cohorts/${id}`],
        ['GET', '/api/cohorts/trainees'],
        ['PATCH', `/api/cohorts/${id}`, { name: 'Taken' }],
        ['POST', `/api/cohorts/${id}/members/add`, { userIds: [alice.user.id] }],
        ['GET', `/api/cohorts/${id}/matrix.csv`],
        ['GET', `/api/cohorts/${id}/coverage`],
        ['GET', `/api/cohorts/${id}/layer`],
        ['POST', '/api/assignments', { scenarioId: scenario.id, cohortId: id }],
        ['POST', '/api/assignments/check-due'],
        ['GET', `/api/remediation/${bob.user.id}`],
        ['GET', `/api/item-analysis/${scenario.id}`],
        ['POST', '/api/paths', { name: 'P', scenarioIds: [scenario.id] }],
      ] as const) {
        const response = await call(method, url, body, alice.cookie);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().error).toMatch(/\w/);
      }
    });
  });

  describe('lists and pickers that do not grow with the data', () => {
    const names = (response: { json(): unknown }) =>
      (response.json() as { items: { name: string }[] }).items.map((item) => item.name);

    it('pages the cohorts by name and searches them, counting the total', async () => {
      for (const name of ['Zulu list 3', 'Zulu list 1', 'Zulu list 2', 'Zulu list 4', 'Zulu list 5'])
        await cohortWith(name, []);
      const first = await call('GET', '/api/cohorts?search=zulu%20LIST&pageSize=2');
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ total: 5, totalIsLowerBound: false, page: 1, pageSize: 2 });
      expect(names(first)).toEqual(['Zulu list 1', 'Zulu list 2']);
      expect(names(await call('GET', '/api/cohorts?search=zulu%20list&pageSize=2&page=3'))).toEqual(['Zulu list 5']);
      // Two characters are too short for the trigram index: the table is read, the answer is the same.
      expect(names(await call('GET', '/api/cohorts?search=u%20l&pageSize=2'))).toEqual(['Zulu list 1', 'Zulu list 2']);
      expect(names(await call('GET', '/api/cohorts?search=nothing-like-it'))).toEqual([]);
    });

    it('finds a renamed cohort by its new name only, and archived ones when asked', async () => {
      const id = await cohortWith('Yankee before', []);
      await call('PATCH', `/api/cohorts/${id}`, { name: 'Yankee after', archived: true });
      expect(names(await call('GET', '/api/cohorts?search=yankee%20before&archived=true'))).toEqual([]);
      expect(names(await call('GET', '/api/cohorts?search=yankee%20after'))).toEqual([]);
      expect(names(await call('GET', '/api/cohorts?search=yankee%20after&archived=true'))).toEqual(['Yankee after']);
    });

    it('pages and searches the learning paths; a trainee never sees archived ones', async () => {
      const scenario = await insertScenario(t.db);
      const ids: string[] = [];
      for (const name of ['Xray path B', 'Xray path A', 'Xray path C']) {
        const created = await call('POST', '/api/paths', { name, scenarioIds: [scenario.id] });
        expect(created.statusCode, created.body).toBe(201);
        ids.push(created.json().id);
      }
      const page = await call('GET', '/api/paths?search=xray%20PATH&pageSize=2&page=2');
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json()).toMatchObject({ total: 3, page: 2, pageSize: 2, items: [{ name: 'Xray path C' }] });
      const archived = await call('PATCH', `/api/paths/${ids[0]}`, { archived: true });
      expect(archived.statusCode, archived.body).toBe(200);
      expect(names(await call('GET', '/api/paths?search=xray%20path&archived=true'))).toEqual([
        'Xray path A',
        'Xray path B',
        'Xray path C',
      ]);
      expect(names(await call('GET', '/api/paths?search=xray%20path&archived=true', undefined, alice.cookie))).toEqual([
        'Xray path A',
        'Xray path C',
      ]);
    });

    it('offers at most 20 published scenarios by name for the pickers, searched by name', async () => {
      for (let index = 0; index < 22; index += 1)
        await insertScenario(t.db, { name: `Whiskey pick ${String(index).padStart(2, '0')}` });
      await insertScenario(t.db, { name: 'Whiskey pick deleted', deleted: true });
      const all = await call('GET', '/api/assignments/scenario-choices?search=whiskey%20pick');
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json().more).toBe(true);
      expect(names(all)).toHaveLength(20);
      expect(names(all)[0]).toBe('Whiskey pick 00');
      const one = await call('GET', '/api/assignments/scenario-choices?search=PICK%2021');
      expect(one.json()).toEqual({ items: [{ id: expect.any(String), name: 'Whiskey pick 21' }], more: false });
      expect(names(await call('GET', '/api/assignments/scenario-choices?search=pick%20deleted'))).toEqual([]);
      expect(names(await call('GET', '/api/assignments/scenario-choices'))).toHaveLength(20);
    });

    it('offers the first 20 names of a text more than 200 scenarios hold, read from the name index', async () => {
      // Written newest name first, so the order comes from the sort, not from the insert.
      for (let index = 204; index >= 0; index -= 1)
        await insertScenario(t.db, { name: `Yankee common ${String(index).padStart(3, '0')}` });
      await insertScenario(t.db, { name: 'Yankee common 000 deleted', deleted: true });
      const common = await call('GET', '/api/assignments/scenario-choices?search=YANKEE%20common');
      expect(common.statusCode, common.body).toBe(200);
      expect(common.json().more).toBe(true);
      expect(names(common)).toEqual(
        Array.from({ length: 20 }, (_, index) => `Yankee common ${String(index).padStart(3, '0')}`),
      );
    });

    it('refuses bad list queries with a readable message', async () => {
      for (const url of [
        '/api/cohorts?page=0',
        '/api/cohorts?pageSize=101',
        '/api/cohorts?archived=maybe',
        '/api/paths?pageSize=abc',
        `/api/paths?search=${'x'.repeat(101)}`,
        `/api/assignments/scenario-choices?search=${'x'.repeat(101)}`,
      ]) {
        const response = await call('GET', url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json().error, url).toMatch(/\w/);
      }
    });

    it('keeps the scenario choices from trainees (403)', async () => {
      const response = await call('GET', '/api/assignments/scenario-choices', undefined, alice.cookie);
      expect(response.statusCode).toBe(403);
    });
  });

  describe('assignments', () => {
    it('gives a scenario to a cohort: members are notified and see it first, status follows their runs', async () => {
      const scenario = await insertScenario(t.db, { name: 'Assigned lure' });
      const id = await cohortWith('Blue team', [alice.user, bob.user]);
      // A pass before the assignment was given does not meet it.
      await insertRun(t.db, {
        user: alice.user,
        scenario,
        decisions: [
          { stepId: 'one', correct: true },
          { stepId: 'two', correct: true },
        ],
        startedMinute: minuteFromNow(-3_600_000),
      });
      const due = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const created = await call('POST', '/api/assignments', {
        scenarioId: scenario.id,
        cohortId: id,
        dueAt: due,
        note: 'Before Friday',
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().items[0]).toMatchObject({
        kind: 'scenario',
        targetName: 'Assigned lure',
        cohort: { id, name: 'Blue team' },
        note: 'Before Friday',
        dueAt: due,
        assignedBy: admin.user.email,
      });

      const aliceList = await mine(alice.cookie);
      const item = aliceList.items.find((entry) => entry.targetId === scenario.id)!;
      expect(item).toMatchObject({ status: 'not_started', next: { scenarioId: scenario.id, resume: false } });
      const bell = await call('GET', '/api/notifications', undefined, alice.cookie);
      expect(bell.json().items[0]).toMatchObject({
        kind: 'assignment',
        message: expect.stringContaining('Assigned lure'),
      });

      await insertRun(t.db, {
        user: alice.user,
        scenario,
        status: 'in_progress',
        decisions: [{ stepId: 'one', correct: true }],
        startedMinute: minuteFromNow(60_000),
      });
      expect((await mine(alice.cookie)).items.find((e) => e.targetId === scenario.id)!.status).toBe('in_progress');
      await t.db
        .updateTable('runs')
        .set({ status: 'ended' })
        .where('user_id', '=', alice.user.id)
        .where('status', '=', 'in_progress')
        .execute();
      await insertRun(t.db, {
        user: alice.user,
        scenario,
        decisions: [
          { stepId: 'one', correct: true },
          { stepId: 'two', correct: false },
        ],
        startedMinute: minuteFromNow(120_000),
      });
      expect((await mine(alice.cookie)).items.find((e) => e.targetId === scenario.id)).toMatchObject({
        status: 'failed',
        bestPercent: 50,
      });
      await insertRun(t.db, {
        user: alice.user,
        scenario,
        decisions: [
          { stepId: 'one', correct: true },
          { stepId: 'two', correct: true },
        ],
        startedMinute: minuteFromNow(180_000),
      });
      expect((await mine(alice.cookie)).items.find((e) => e.targetId === scenario.id)).toMatchObject({
        status: 'passed',
        bestPercent: 100,
        next: null,
      });

      const detail = (await call('GET', `/api/cohorts/${id}`)).json() as CohortDetail;
      const column = detail.assignments.findIndex((a) => a.targetId === scenario.id);
      const cell = (user: User) => detail.matrix.find((row) => row.trainee.id === user.id)!.cells[column];
      expect(cell(alice.user)).toMatchObject({ status: 'passed', bestPercent: 100, result: 'Pass' });
      expect(cell(bob.user)).toMatchObject({ status: 'not_started', bestPercent: null });
    });

    it("never shows a trainee another cohort's assignments", async () => {
      const scenario = await insertScenario(t.db, { name: 'Red only' });
      const red = await cohortWith('Red team', [carol.user]);
      await call('POST', '/api/assignments', { scenarioId: scenario.id, cohortId: red });
      expect((await mine(carol.cookie)).items.some((e) => e.targetId === scenario.id)).toBe(true);
      expect((await mine(bob.cookie)).items.some((e) => e.targetId === scenario.id)).toBe(false);
      expect((await call('GET', `/api/cohorts/${red}`, undefined, bob.cookie)).statusCode).toBe(403);
      // Single trainees: only the one named.
      const solo = await insertScenario(t.db, { name: 'Solo' });
      await call('POST', '/api/assignments', { scenarioId: solo.id, userIds: [bob.user.id] });
      expect((await mine(bob.cookie)).items.some((e) => e.targetId === solo.id && e.cohort === null)).toBe(true);
      expect((await mine(carol.cookie)).items.some((e) => e.targetId === solo.id)).toBe(false);
      // Archiving the cohort takes its assignments off the list.
      await call('PATCH', `/api/cohorts/${red}`, { archived: true });
      expect((await mine(carol.cookie)).items.some((e) => e.targetId === scenario.id)).toBe(false);
    });

    it('refuses bad assignments with a readable message and writes nothing', async () => {
      const scenario = await insertScenario(t.db);
      const gone = await insertScenario(t.db, { deleted: true });
      const cohort = await cohortWith('Checks', [alice.user]);
      const before = [await count('assignments'), await count('notifications')];
      const past = new Date(Date.now() - 60_000).toISOString();
      const cases: [unknown, number, RegExp][] = [
        [{ cohortId: cohort }, 400, /either a scenario/],
        [{ scenarioId: scenario.id, pathId: 'p', cohortId: cohort }, 400, /either a scenario/],
        [{ scenarioId: scenario.id }, 400, /either to a cohort/],
        [{ scenarioId: scenario.id, cohortId: cohort, userIds: [alice.user.id] }, 400, /either to a cohort/],
        [{ scenarioId: scenario.id, cohortId: cohort, dueAt: 'tomorrow' }, 400, /ISO 8601/],
        [{ scenarioId: scenario.id, cohortId: cohort, dueAt: past }, 400, /in the past/],
        [{ scenarioId: scenario.id, cohortId: cohort, note: 7 }, 400, /\w/],
        [{ scenarioId: 'ghost', cohortId: cohort }, 404, /No published scenario/],
        [{ scenarioId: gone.id, cohortId: cohort }, 404, /No published scenario/],
        [{ pathId: 'ghost', cohortId: cohort }, 404, /No learning path/],
        [{ scenarioId: scenario.id, cohortId: 'ghost' }, 404, /No cohort/],
        [{ scenarioId: scenario.id, userIds: [alice.user.id, 'ghost'] }, 404, /No user has the id "ghost"/],
        [{ scenarioId: scenario.id, userIds: [admin.user.id] }, 400, /not a trainee/],
      ];
      for (const [body, status, message] of cases) {
        const response = await call('POST', '/api/assignments', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
        expect(response.json().error).toMatch(message);
      }
      expect([await count('assignments'), await count('notifications')]).toEqual(before);
      expect((await call('DELETE', '/api/assignments/ghost')).statusCode).toBe(404);
    });

    it("cancels an assignment: it leaves the trainee's list", async () => {
      const scenario = await insertScenario(t.db);
      const created = await call('POST', '/api/assignments', { scenarioId: scenario.id, userIds: [carol.user.id] });
      const id = created.json().items[0].id;
      expect((await call('DELETE', `/api/assignments/${id}`)).json()).toEqual({ ok: true });
      expect((await mine(carol.cookie)).items.some((e) => e.id === id)).toBe(false);
      expect((await call('DELETE', `/api/assignments/${id}`)).statusCode).toBe(404);
    });

    it('sends due-soon, overdue and overdue-members notices once each', async () => {
      const scenario = await insertScenario(t.db, { name: 'Deadline drill' });
      const cohort = await cohortWith('Deadline', [alice.user, bob.user]);
      const due = new Date(Date.now() + 6 * 3_600_000);
      const created = await call('POST', '/api/assignments', {
        scenarioId: scenario.id,
        cohortId: cohort,
        dueAt: due.toISOString(),
      });
      expect(created.statusCode).toBe(201);
      // Bob meets it; only Alice hears about it.
      await insertRun(t.db, {
        user: bob.user,
        scenario,
        decisions: [
          { stepId: 'one', correct: true },
          { stepId: 'two', correct: true },
        ],
        startedMinute: minuteFromNow(60_000),
      });
      const kinds = async (user: User) =>
        (
          await t.db
            .selectFrom('notifications')
            .select('kind')
            .where('recipient_id', '=', user.id)
            .where('subject_id', '=', created.json().items[0].id)
            .execute()
        ).map((row) => row.kind);

      const soon = await checkDueAssignments(t.db);
      expect(soon.dueSoon).toBeGreaterThanOrEqual(1);
      await checkDueAssignments(t.db);
      expect(await kinds(alice.user)).toEqual(['assignment_due_soon']);
      expect(await kinds(bob.user)).toEqual([]);

      const later = new Date(due.getTime() + 60_000);
      await Promise.all([checkDueAssignments(t.db, later), checkDueAssignments(t.db, later)]);
      await checkDueAssignments(t.db, later);
      expect((await kinds(alice.user)).sort()).toEqual(['assignment_due_soon', 'assignment_overdue']);
      expect(await kinds(admin.user)).toEqual(['assignment_overdue_members']);
      const adminNotice = await t.db
        .selectFrom('notifications')
        .select(['message', 'link'])
        .where('recipient_id', '=', admin.user.id)
        .where('kind', '=', 'assignment_overdue_members')
        .where('subject_id', '=', created.json().items[0].id)
        .executeTakeFirstOrThrow();
      expect(adminNotice).toEqual({
        message: expect.stringContaining('1 trainee has not completed "Deadline drill"'),
        link: `/admin/cohorts/${cohort}`,
      });
      // The cohort page lists her as overdue.
      const overdue = await t.db
        .updateTable('assignments')
        .set({ due_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', created.json().items[0].id)
        .execute();
      expect(overdue).toBeDefined();
      const detail = (await call('GET', `/api/cohorts/${cohort}`)).json() as CohortDetail;
      expect(detail.overdue.map((entry) => entry.trainee.id)).toEqual([alice.user.id]);
      expect((await mine(alice.cookie)).items[0]).toMatchObject({ targetName: 'Deadline drill', status: 'overdue' });
      expect((await call('POST', '/api/assignments/check-due')).statusCode).toBe(200);
    });
  });

  describe('learning paths and certificates', () => {
    let first: { id: string; definition: ScenarioDefinition };
    let second: { id: string; definition: ScenarioDefinition };

    beforeAll(async () => {
      first = await insertScenario(t.db, { name: 'Path one' });
      second = await insertScenario(t.db, { name: 'Path two' });
    });

    /** Plays a scenario through the run engine, every answer right. */
    async function playRight(scenario: { id: string; definition: ScenarioDefinition }, cookie: string) {
      let state = (await call('POST', '/api/runs', { scenarioId: scenario.id, startOver: true }, cookie)).json()
        .run as RunState;
      const runId = state.id;
      while (state.status === 'in_progress') {
        const step = scenario.definition.steps.find((s) => s.id === state.currentStep!.id)!;
        const answered = await call(
          'POST',
          `/api/runs/${runId}/answer`,
          { stepId: step.id, timeMs: 400, ...answerFor(runId, step, 'right') },
          cookie,
        );
        expect(answered.statusCode, answered.body).toBe(200);
        state = (await call('POST', `/api/runs/${runId}/next`, {}, cookie)).json().run as RunState;
      }
      expect(state.result).toBe('Pass');
    }

    it('opens each step when the one before is passed, and issues one certificate at the end', async () => {
      const created = await call('POST', '/api/paths', {
        name: 'Phishing basics',
        description: 'Two cases',
        scenarioIds: [first.id, second.id],
      });
      expect(created.statusCode, created.body).toBe(201);
      const pathId = created.json().id as string;
      expect((created.json() as PathDetail).steps.map((s) => s.state)).toEqual(['open', 'locked']);
      const assigned = await call('POST', '/api/assignments', {
        pathId,
        userIds: [carol.user.id],
        dueAt: new Date(Date.now() + 86_400_000 * 7).toISOString(),
      });
      expect(assigned.statusCode).toBe(201);
      expect((await mine(carol.cookie)).items.find((e) => e.targetId === pathId)).toMatchObject({
        kind: 'path',
        status: 'not_started',
        progress: { passed: 0, total: 2 },
        next: { scenarioId: first.id },
      });

      await playRight(first, carol.cookie);
      const halfway = (await call('GET', `/api/paths/${pathId}`, undefined, carol.cookie)).json() as PathDetail;
      expect(halfway.steps.map((s) => s.state)).toEqual(['passed', 'open']);
      expect(halfway.certificate).toBeNull();
      expect((await mine(carol.cookie)).items.find((e) => e.targetId === pathId)).toMatchObject({
        status: 'in_progress',
        progress: { passed: 1, total: 2 },
        next: { scenarioId: second.id },
      });

      await playRight(second, carol.cookie);
      const done = (await call('GET', `/api/paths/${pathId}`, undefined, carol.cookie)).json() as PathDetail;
      expect(done.passedCount).toBe(2);
      expect(done.certificate).toMatchObject({
        holderName: 'Carol Cole',
        pathName: 'Phishing basics',
        revokedAt: null,
      });
      const again = (await call('GET', `/api/paths/${pathId}`, undefined, carol.cookie)).json() as PathDetail;
      expect(again.certificate!.code).toBe(done.certificate!.code);
      expect((await mine(carol.cookie)).items.find((e) => e.targetId === pathId)!.status).toBe('passed');
      const certificates = (await call('GET', '/api/certificates/mine', undefined, carol.cookie)).json().items;
      expect(certificates).toHaveLength(1);

      const pdf = await call('GET', `/api/certificates/${done.certificate!.id}/pdf`, undefined, carol.cookie);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      // Another trainee cannot download it; an admin can.
      expect(
        (await call('GET', `/api/certificates/${done.certificate!.id}/pdf`, undefined, bob.cookie)).statusCode,
      ).toBe(404);
      expect((await call('GET', `/api/certificates/${done.certificate!.id}/pdf`)).statusCode).toBe(200);

      const verified = await t.request({ method: 'GET', url: `/api/verify/${done.certificate!.code}` });
      expect(verified.json()).toMatchObject({
        status: 'genuine',
        holderName: 'Carol Cole',
        pathName: 'Phishing basics',
      });
      expect((await t.request({ method: 'GET', url: '/api/verify/not-a-code' })).json()).toMatchObject({
        status: 'unknown',
        holderName: null,
      });

      expect(
        (await call('POST', `/api/certificates/${done.certificate!.id}/revoke`, undefined, carol.cookie)).statusCode,
      ).toBe(403);
      const revoked = await call('POST', `/api/certificates/${done.certificate!.id}/revoke`);
      expect(revoked.json().revokedAt).not.toBeNull();
      expect((await t.request({ method: 'GET', url: `/api/verify/${done.certificate!.code}` })).json()).toMatchObject({
        status: 'revoked',
      });
      expect((await call('POST', `/api/certificates/${done.certificate!.id}/revoke`)).statusCode).toBe(400);
      expect((await call('POST', '/api/certificates/ghost/revoke')).statusCode).toBe(404);
      expect((await call('GET', `/api/paths/${pathId}/certificates`)).json().items).toHaveLength(1);
    });

    it("says on the dashboard's path card what the path page says, for a path passed before it was assigned", async () => {
      const trainee = await t.userWithSession('student');
      await playRight(first, trainee.cookie);
      await playRight(second, trainee.cookie);
      const created = await call('POST', '/api/paths', {
        name: 'Passed before assigned',
        description: 'Two cases',
        scenarioIds: [first.id, second.id],
      });
      const pathId = created.json().id as string;
      const page = (await call('GET', `/api/paths/${pathId}`, undefined, trainee.cookie)).json() as PathDetail;
      expect(page.passedCount).toBe(2);
      expect(page.certificate).not.toBeNull();
      expect((await call('POST', '/api/assignments', { pathId, userIds: [trainee.user.id] })).statusCode).toBe(201);
      expect((await mine(trainee.cookie)).items.find((e) => e.targetId === pathId)).toMatchObject({
        status: 'passed',
        progress: { passed: page.passedCount, total: page.steps.length },
        next: null,
      });
    });

    it('issues the certificate and rings the bell as the run that completes the path ends', async () => {
      const trainee = await t.userWithSession('student', { first_name: 'Zoë', last_name: 'Łukasiewicz' });
      const only = await insertScenario(t.db, { name: 'Last step' });
      const pathId = (
        await call('POST', '/api/paths', { name: 'One to go', scenarioIds: [first.id, only.id], unlock: 'open' })
      ).json().id as string;
      await playRight(first, trainee.cookie);
      expect((await call('GET', '/api/certificates/mine', undefined, trainee.cookie)).json().items).toEqual([]);

      // The path page is never read: the last run's end issues the certificate.
      await playRight(only, trainee.cookie);
      const certificates = (await call('GET', '/api/certificates/mine', undefined, trainee.cookie)).json().items;
      expect(certificates).toEqual([
        expect.objectContaining({ pathId, pathName: 'One to go', holderName: 'Zoë Łukasiewicz', revokedAt: null }),
      ]);
      const bell = await t.db
        .selectFrom('notifications')
        .select(['kind', 'message', 'link'])
        .where('recipient_id', '=', trainee.user.id)
        .where('kind', '=', 'certificate')
        .execute();
      expect(bell).toEqual([
        {
          kind: 'certificate',
          message: expect.stringContaining('Certificate earned: you completed the learning path "One to go"'),
          link: `/paths/${pathId}`,
        },
      ]);
      // Playing it again issues no second certificate and no second notice.
      await playRight(only, trainee.cookie);
      expect((await call('GET', '/api/certificates/mine', undefined, trainee.cookie)).json().items).toHaveLength(1);
      const notices = await t.db
        .selectFrom('notifications')
        .select('id')
        .where('recipient_id', '=', trainee.user.id)
        .where('kind', '=', 'certificate')
        .execute();
      expect(notices).toHaveLength(1);
    });

    it('edits a path: name, unlock rule, scenarios added, removed and reordered, audited; a stale edit is refused', async () => {
      const third = await insertScenario(t.db, { name: 'Path three' });
      const trainee = await t.userWithSession('student');
      const created = (
        await call('POST', '/api/paths', { name: 'To edit', scenarioIds: [first.id, second.id] })
      ).json() as PathDetail;
      expect(created.revision).toBe(1);
      await playRight(first, trainee.cookie);
      await playRight(second, trainee.cookie);
      const earned = (await call('GET', `/api/paths/${created.id}`, undefined, trainee.cookie)).json() as PathDetail;
      expect(earned.certificate).not.toBeNull();

      const edited = await call('PATCH', `/api/paths/${created.id}`, {
        revision: 1,
        name: 'Edited path',
        description: 'Now three cases',
        unlock: 'open',
        scenarioIds: [third.id, second.id],
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({
        name: 'Edited path',
        description: 'Now three cases',
        unlock: 'open',
        revision: 2,
        steps: [{ scenarioId: third.id }, { scenarioId: second.id }],
      });
      const audit = await t.db
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', 'update learning path')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit.details).toContain('renamed "To edit" to "Edited path"');
      expect(audit.details).toContain(`scenarios added: ${third.id}`);
      expect(audit.details).toContain(`scenarios removed: ${first.id}`);

      // Someone else's edit from revision 1 changes nothing.
      const stale = await call('PATCH', `/api/paths/${created.id}`, { revision: 1, name: 'Lost edit' });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatch(/changed this learning path since you opened it/);
      expect(((await call('GET', `/api/paths/${created.id}`)).json() as PathDetail).name).toBe('Edited path');
      expect(
        (await call('PATCH', `/api/paths/${created.id}`, { revision: 2, scenarioIds: [third.id, third.id] }))
          .statusCode,
      ).toBe(400);
      expect((await call('PATCH', `/api/paths/${created.id}`, { revision: 2, scenarioIds: [] })).json().error).toBe(
        'A path has at least one scenario.',
      );
      expect(((await call('GET', `/api/paths/${created.id}`)).json() as PathDetail).revision).toBe(2);

      // Progress follows the new steps; the certificate already issued stays valid.
      const after = (await call('GET', `/api/paths/${created.id}`, undefined, trainee.cookie)).json() as PathDetail;
      expect(after.steps.map((step) => step.state)).toEqual(['open', 'passed']);
      expect(after.certificate!.code).toBe(earned.certificate!.code);
      expect((await t.request({ method: 'GET', url: `/api/verify/${earned.certificate!.code}` })).json().status).toBe(
        'genuine',
      );
      expect((await call('PATCH', `/api/paths/${created.id}`, { name: 'x' }, trainee.cookie)).statusCode).toBe(403);
    });

    it('opens every step of an open path, and changes paths', async () => {
      const created = (
        await call('POST', '/api/paths', { name: 'Free order', unlock: 'open', scenarioIds: [first.id, second.id] })
      ).json() as PathDetail;
      expect(created.steps.map((s) => s.state)).toEqual(['open', 'open']);
      const changed = await call('PATCH', `/api/paths/${created.id}`, {
        unlock: 'sequential',
        scenarioIds: [second.id],
      });
      expect((changed.json() as PathDetail).steps.map((s) => s.scenarioId)).toEqual([second.id]);
      await call('PATCH', `/api/paths/${created.id}`, { archived: true });
      expect((await call('GET', `/api/paths/${created.id}`, undefined, bob.cookie)).statusCode).toBe(404);
      expect((await call('POST', '/api/assignments', { pathId: created.id, userIds: [bob.user.id] })).statusCode).toBe(
        400,
      );
    });

    it('refuses bad paths and writes nothing', async () => {
      const before = await count('learning_paths');
      for (const [body, status] of [
        [{ name: 'P' }, 400],
        [{ name: 'P', scenarioIds: [] }, 400],
        [{ name: 'P', scenarioIds: [first.id], unlock: 'whenever' }, 400],
        [{ name: 'P', scenarioIds: [first.id, first.id] }, 400],
        [{ name: 'P', scenarioIds: [first.id, 'ghost'] }, 404],
        [{ scenarioIds: [first.id] }, 400],
      ] as const) {
        const response = await call('POST', '/api/paths', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
        expect(response.json().error).toMatch(/\w/);
      }
      expect(await count('learning_paths')).toBe(before);
      expect((await call('GET', '/api/paths/ghost', undefined, bob.cookie)).statusCode).toBe(404);
      expect((await call('PATCH', '/api/paths/ghost', { name: 'x' })).statusCode).toBe(404);
    });
  });

  describe('analytics', () => {
    it('exports the matrix as CSV and the coverage as a heatmap and a Navigator layer', async () => {
      const scenario = await insertScenario(t.db, {
        name: 'Covered',
        steps: [
          { id: 'one', technique: 'T1566.001' },
          { id: 'two', technique: 'T1557' },
        ],
      });
      const cohort = await cohortWith('Coverage', [alice.user, bob.user]);
      await call('POST', '/api/assignments', { scenarioId: scenario.id, cohortId: cohort });
      await insertRun(t.db, {
        user: alice.user,
        scenario,
        decisions: [
          { stepId: 'one', correct: true, technique: 'T1566.001' },
          { stepId: 'two', correct: false, technique: 'T1557' },
        ],
        startedMinute: minuteFromNow(60_000),
      });
      await insertRun(t.db, {
        user: bob.user,
        scenario,
        decisions: [{ stepId: 'one', correct: false, technique: 'T1566.001' }],
        startedMinute: minuteFromNow(60_000),
        status: 'in_progress',
      });

      const csv = await call('GET', `/api/cohorts/${cohort}/matrix.csv`);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('Email,Name,Assignment,Kind,Due (UTC),Status,Best score (%)');
      expect(lines).toContain(`${alice.user.email},Alice Archer,Covered,scenario,,Failed,50`);
      expect(lines).toContain(`${bob.user.email},Bob Baker,Covered,scenario,,In progress,`);

      const coverage = (await call('GET', `/api/cohorts/${cohort}/coverage`)).json();
      expect(coverage.techniques).toEqual([
        expect.objectContaining({ id: 'T1557', attempts: 1, correct: 0, trainees: 1 }),
        expect.objectContaining({ id: 'T1566.001', attempts: 2, correct: 1, sharePercent: 50, trainees: 2 }),
      ]);
      const layer = await call('GET', `/api/cohorts/${cohort}/layer`);
      expect(layer.headers['content-disposition']).toContain('attachment');
      expect(layer.json()).toMatchObject({ versions: { layer: '4.5' }, domain: 'enterprise-attack' });
      expect(layer.json().techniques.map((x: { techniqueID: string }) => x.techniqueID)).toEqual([
        'T1557',
        'T1566',
        'T1566.001',
      ]);
      expect((await call('GET', '/api/cohorts/ghost/coverage')).statusCode).toBe(404);
    });

    it('recommends published scenarios that train the weakest techniques', async () => {
      const trainee = await t.userWithSession('student');
      const weak = await insertScenario(t.db, {
        name: 'Weak spot',
        steps: [{ id: 'one', technique: 'T1059' }, { id: 'two' }],
      });
      const practice = await insertScenario(t.db, {
        name: 'Practice T1059',
        steps: [
          { id: 'a', technique: 'T1059.001' },
          { id: 'b', technique: 'T1059' },
        ],
      });
      const hidden = await insertScenario(t.db, {
        name: 'Deleted T1059',
        steps: [{ id: 'a', technique: 'T1059' }, { id: 'b' }],
        deleted: true,
      });
      await insertRun(t.db, {
        user: trainee.user,
        scenario: weak,
        decisions: [
          { stepId: 'one', correct: false, technique: 'T1059' },
          { stepId: 'two', correct: true },
        ],
      });
      const mineNow = (await call('GET', '/api/remediation/mine', undefined, trainee.cookie)).json();
      expect(mineNow.weakTechniques).toEqual([expect.objectContaining({ id: 'T1059', sharePercent: 0 })]);
      const ids = mineNow.scenarios.map((s: { id: string }) => s.id);
      expect(ids).toContain(practice.id);
      expect(ids).not.toContain(hidden.id);
      const asAdmin = (await call('GET', `/api/remediation/${trainee.user.id}`)).json();
      expect(asAdmin.trainee.id).toBe(trainee.user.id);
      expect(asAdmin.scenarios).toEqual(mineNow.scenarios);
      expect((await call('GET', '/api/remediation/ghost')).statusCode).toBe(404);

      // An edit that stops the practice scenario training T1059 shows at once.
      const edited = await t.db
        .selectFrom('scenarios')
        .select('definition')
        .where('id', '=', practice.id)
        .executeTakeFirstOrThrow();
      await t.db
        .updateTable('scenarios')
        .set({
          definition: edited.definition.replaceAll('T1059', 'T1110'),
          updated_at: new Date(Date.now() + 1000).toISOString(),
        })
        .where('id', '=', practice.id)
        .execute();
      const trainsOf = (answer: { scenarios: { id: string; trains: string[] }[] }) =>
        answer.scenarios.find((scenario) => scenario.id === practice.id)?.trains ?? [];
      expect(trainsOf(mineNow).some((label) => label.includes('T1059'))).toBe(true);
      const afterEdit = (await call('GET', '/api/remediation/mine', undefined, trainee.cookie)).json();
      expect(trainsOf(afterEdit).some((label) => label.includes('T1059'))).toBe(false);

      // The server keeps the library in memory between changes: a scenario written since (here straight into the
      // database, as another server would) is recommended at once, and one deleted since is not.
      const added = await insertScenario(t.db, {
        name: 'Newly published T1059',
        steps: [{ id: 'a', technique: 'T1059' }, { id: 'b' }],
      });
      const idsOf = (answer: { scenarios: { id: string }[] }) => answer.scenarios.map((scenario) => scenario.id);
      expect(idsOf((await call('GET', '/api/remediation/mine', undefined, trainee.cookie)).json())).toContain(added.id);
      await t.db
        .updateTable('scenarios')
        .set({ deleted_at: new Date().toISOString() })
        .where('id', '=', added.id)
        .execute();
      expect(idsOf((await call('GET', '/api/remediation/mine', undefined, trainee.cookie)).json())).not.toContain(
        added.id,
      );
    });

    it('ranks remediation by weight, then the easier scenario, then by name, each listing what it trains in step order', async () => {
      const trainee = await t.userWithSession('student');
      // The scenario the trainee played is deleted since, so only the four below train these techniques.
      const played = await insertScenario(t.db, {
        name: 'Played and gone',
        steps: [
          { id: 'one', technique: 'T1485' },
          { id: 'two', technique: 'T1490' },
        ],
        deleted: true,
      });
      await insertRun(t.db, {
        user: trainee.user,
        scenario: played,
        decisions: [
          { stepId: 'one', correct: false, technique: 'T1485' },
          { stepId: 'two', correct: false, technique: 'T1490' },
        ],
      });
      const both = await insertScenario(t.db, {
        name: 'Recovery drill',
        difficulty: 2,
        steps: [
          { id: 'x', technique: 'T1490' },
          { id: 'y', technique: 'T1485' },
        ],
      });
      const harder = await insertScenario(t.db, {
        name: 'Wipe response',
        difficulty: 4,
        steps: [{ id: 'a', technique: 'T1485' }],
      });
      const easier = await insertScenario(t.db, {
        name: 'Another wipe',
        difficulty: 1,
        steps: [{ id: 'a', technique: 'T1485' }],
      });
      const firstByName = await insertScenario(t.db, {
        name: 'Alpha wipe',
        difficulty: 1,
        steps: [{ id: 'a', technique: 'T1485' }],
      });

      const answer = (await call('GET', '/api/remediation/mine', undefined, trainee.cookie)).json();
      expect(answer.weakTechniques.map((technique: { id: string }) => technique.id)).toEqual(['T1485', 'T1490']);
      expect(answer.scenarios.map((scenario: { id: string }) => scenario.id)).toEqual([
        both.id,
        firstByName.id,
        easier.id,
        harder.id,
      ]);
      const trains: string[] = answer.scenarios[0].trains;
      const at = (id: string) => trains.findIndex((label) => label.includes(id));
      expect(at('T1490')).toBeGreaterThanOrEqual(0);
      expect(at('T1490')).toBeLessThan(at('T1485'));
      expect(answer.scenarios[1].trains.filter((label: string) => label.includes('T1490'))).toEqual([]);
    });

    it('analyses each step: reach, credit, options, discrimination, median time, attention first', async () => {
      const scenario = await insertScenario(t.db, {
        name: 'Analysed',
        steps: [
          { id: 'easy', options: ['right', 'wrong', 'never'] },
          { id: 'tricky', options: ['right', 'lure'] },
        ],
      });
      // Ten finished runs: the top scorers pick the lure at "tricky" (and still score on "easy"), the weak get it right.
      const users = await Promise.all(Array.from({ length: 10 }, () => t.createUser()));
      for (const [index, user] of users.entries()) {
        const strong = index < 5;
        await insertRun(t.db, {
          user,
          scenario,
          score: strong ? 2 : index === 9 ? 0 : 1,
          decisions: [
            { stepId: 'easy', correct: strong, optionIndex: strong ? 0 : 1, timeMs: 1000 * (index + 1) },
            { stepId: 'tricky', correct: !strong, optionIndex: strong ? 1 : 0, timeMs: 500 },
          ],
        });
      }
      const analysis = (await call('GET', `/api/item-analysis/${scenario.id}`)).json() as ItemAnalysis;
      expect(analysis).toMatchObject({ runs: 10, finishedRuns: 10, groupSize: 2 });
      const tricky = analysis.steps.find((s) => s.stepId === 'tricky')!;
      const easy = analysis.steps.find((s) => s.stepId === 'easy')!;
      expect(tricky).toMatchObject({
        reached: 10,
        answered: 10,
        meanCredit: 0.5,
        discrimination: -1,
        medianTimeMs: 500,
      });
      expect(tricky.options).toEqual([
        { index: 0, text: 'right', correct: true, chosen: 5, chosenByTop: 0 },
        { index: 1, text: 'lure', correct: false, chosen: 5, chosenByTop: 2 },
      ]);
      expect(tricky.flags).toEqual(['negative_discrimination', 'popular_distractor']);
      expect(easy).toMatchObject({ discrimination: 1, medianTimeMs: 5500 });
      expect(easy.flags).toEqual(['unused_distractor']);
      expect(analysis.steps[0]!.stepId).toBe('tricky');
      expect((await call('GET', '/api/item-analysis/ghost')).statusCode).toBe(404);
    });

    it('analyses one version at a time: the newest with runs by default, any other when asked', async () => {
      const scenario = await insertScenario(t.db, {
        name: 'Versioned',
        steps: [{ id: 'old-step', options: ['a', 'b'] }, { id: 'kept' }],
      });
      const users = await Promise.all(Array.from({ length: 3 }, () => t.createUser()));
      const pin = (runId: string, versionId: string) =>
        t.db.updateTable('runs').set({ version_id: versionId }).where('id', '=', runId).execute();
      for (const user of users) {
        const run = await insertRun(t.db, {
          user,
          scenario,
          decisions: [
            { stepId: 'old-step', correct: false, optionIndex: 1 },
            { stepId: 'kept', correct: true },
          ],
        });
        await pin(run.id, `${scenario.id}@v1`);
      }
      // Version 2 replaces "old-step" by "new-step" with three options.
      const v2 = {
        ...scenario.definition,
        steps: [
          { ...scenario.definition.steps[0]!, id: 'new-step', options: [{ text: 'x' }, { text: 'y' }, { text: 'z' }] },
          scenario.definition.steps[1]!,
        ],
      };
      // Published through the authoring API (docs/authoring.md): version 1 is superseded.
      const draft = await call('PUT', `/api/sim/${scenario.id}/draft`, { revision: null, definition: v2 });
      expect(draft.statusCode, draft.body).toBe(200);
      const published = await call('POST', `/api/sim/${scenario.id}/publish`, { revision: draft.json().revision });
      expect(published.statusCode, published.body).toBe(200);

      // No run on version 2 yet: version 1 is analysed, with its own steps.
      const before = (await call('GET', `/api/item-analysis/${scenario.id}`)).json() as ItemAnalysis;
      expect(before.version).toMatchObject({ number: 1, state: 'superseded', runs: 3 });
      expect(before.versions.map((version) => [version.number, version.runs])).toEqual([
        [2, 0],
        [1, 3],
      ]);
      expect(before.steps.map((step) => step.stepId).sort()).toEqual(['kept', 'old-step']);

      // A run on version 2 (one that records no version plays the current one).
      await insertRun(t.db, {
        user: users[0]!,
        scenario,
        decisions: [
          { stepId: 'new-step', correct: false, optionIndex: 2 },
          { stepId: 'kept', correct: true },
        ],
      });
      const latest = (await call('GET', `/api/item-analysis/${scenario.id}`)).json() as ItemAnalysis;
      expect(latest).toMatchObject({ version: { number: 2, runs: 1 }, runs: 1, analysedRuns: 1, finishedRuns: 1 });
      const newStep = latest.steps.find((step) => step.stepId === 'new-step')!;
      expect(newStep.options.map((option) => [option.text, option.chosen])).toEqual([
        ['x', 0],
        ['y', 0],
        ['z', 1],
      ]);
      expect(latest.steps.some((step) => step.stepId === 'old-step')).toBe(false);

      const first = (await call('GET', `/api/item-analysis/${scenario.id}?version=1`)).json() as ItemAnalysis;
      expect(first).toMatchObject({ version: { number: 1 }, runs: 3, analysedRuns: 3 });
      // The analysis reads at most the newest ITEM_ANALYSIS_RUNS of a version, whichever kind of run they are.
      const sample = (versionId: string, unpinned: boolean, limit: number) =>
        countSampledRuns(t.db, { scenarioId: scenario.id, versionId, unpinned, limit });
      expect(await sample(`${scenario.id}@v1`, false, 2)).toEqual({ analysed: 2, finished: 2 });
      expect(await sample(`${scenario.id}@v1`, false, 500)).toEqual({ analysed: 3, finished: 3 });
      const current = await t.db
        .selectFrom('scenarios')
        .select('current_version_id')
        .where('id', '=', scenario.id)
        .executeTakeFirstOrThrow();
      expect(await sample(current.current_version_id!, true, 500)).toEqual({ analysed: 1, finished: 1 });
      expect(first.steps.find((step) => step.stepId === 'old-step')).toMatchObject({ answered: 3, meanCredit: 0 });
      expect((await call('GET', `/api/item-analysis/${scenario.id}?version=9`)).statusCode).toBe(404);
      expect((await call('GET', `/api/item-analysis/${scenario.id}?version=first`)).statusCode).toBe(400);
    });
  });
});
