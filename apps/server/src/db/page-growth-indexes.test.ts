import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { recordingQueries } from '../../test/recorded-queries';
import { listLoginEvents, recordLoginEvent } from '../features/activity/activity.repository';
import { listAuditEntries } from '../features/audit/audit.repository';
import {
  insertCohort,
  insertPath,
  listCohorts,
  listPaths,
  scenarioChoices,
  searchTrainees,
} from '../features/programmes/programmes.repository';
import { listManagedUsers, userStats } from '../features/users/users.repository';
import { listCatalogue, listRunsOfUser, listTrainingProgress } from '../features/progress/progress.repository';
import type { Db } from './database';

// Migration 0060: the queries the pages benchmark (bench/pages) found sorting or scanning in step with the
// data now walk an index. Each plan is of the repository's own query, recorded as the repository runs it, so
// the test follows the query wherever it changes.
describe('indexes for pages that must not grow with the data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The plans of every query `run` sends, in order, on this test's dialect. */
  async function plans(run: (db: Db) => Promise<unknown>): Promise<{ sql: string; plan: string }[]> {
    const recorded = recordingQueries(t.db);
    await run(recorded.db);
    const compiled = recorded.sent();
    return t.db.connection().execute(async (connection) => {
      // PostgreSQL prefers a plain sort or scan on tables this small: forbid them to see what the indexes allow.
      if (t.dialect === 'postgres') {
        await sql`set enable_sort = off`.execute(connection);
        await sql`set enable_seqscan = off`.execute(connection);
      }
      const explain = t.dialect === 'postgres' ? 'explain ' : 'explain query plan ';
      const result = [];
      for (const query of compiled) {
        const rows = await connection.executeQuery(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
        result.push({ sql: query.sql, plan: JSON.stringify(rows.rows) });
      }
      if (t.dialect === 'postgres') await sql`reset all`.execute(connection);
      return result;
    });
  }

  it.each(['actor', 'action', 'details', 'screen'] as const)(
    'sorts the audit log by %s with an index walk',
    async (column) => {
      for (const dir of ['asc', 'desc'] as const) {
        const sent = await plans((db) => listAuditEntries(db, {}, { sort: column, dir, page: 1, pageSize: 10 }));
        const page = sent.find((query) => /order by/i.test(query.sql));
        expect(page?.plan).toContain(`audit_log_${column}_sort_idx`);
        expect(page?.plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key/);
      }
    },
  );

  it.each([
    ['name', 'users_name_sort_idx'],
    // SQLite knows emails are unique, so their unique index alone gives the order.
    ['email', /users_email_sort_idx|sqlite_autoindex_users_\d/],
    ['role', 'users_role_sort_idx'],
    ['designation', 'users_designation_sort_idx'],
  ] as const)('sorts Manage Users by %s with an index walk', async (sort, index) => {
    await t.createUser(); // an empty list sends no page query
    for (const dir of ['asc', 'desc'] as const) {
      const sent = await plans((db) => listManagedUsers(db, { sort, dir, page: 1, pageSize: 10 }));
      const page = sent.find((query) => /order by/i.test(query.sql));
      expect(page?.plan).toMatch(index);
      expect(page?.plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key/);
    }
  });

  it('sorts Manage Users by status, names always A to Z, with an index walk each way', async () => {
    await t.createUser();
    for (const [dir, index] of [
      ['asc', 'users_status_up_sort_idx'],
      ['desc', 'users_status_down_sort_idx'],
    ] as const) {
      const sent = await plans((db) => listManagedUsers(db, { sort: 'status', dir, page: 1, pageSize: 10 }));
      const page = sent.find((query) => /order by/i.test(query.sql));
      expect(page?.plan).toContain(index);
      expect(page?.plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key/);
    }
  });

  it('counts the accounts locked now through the (disabled, locked_until) index, not every account', async () => {
    const sent = await plans((db) => userStats(db));
    expect(sent.find((query) => /locked_until/.test(query.sql))?.plan).toContain('users_locked_idx');
  });

  it("asks whether a trainee completed a scenario with the trainee's own runs only", async () => {
    const [catalogue] = await plans((db) => listCatalogue(db, { notCompletedBy: 'u' }));
    expect(catalogue?.sql).toMatch(/not exists/i);
    // An index led by user_id (SQLite picks runs_user_scenario_idx, PostgreSQL one of the user_id-led ones), never
    // every run of the scenario.
    expect(catalogue?.plan).toMatch(/runs_user_(scenario|started_id|scenario_started)_idx/);
    expect(catalogue?.plan).not.toContain('runs_scenario_idx');
  });

  it("reads a user's runs newest first from one index", async () => {
    const [runs] = await plans((db) => listRunsOfUser(db, 'u'));
    expect(runs?.plan).toContain('runs_user_started_id_idx');
    expect(runs?.plan).not.toMatch(/TEMP B-TREE|Sort Key/);
  });

  // "Contains" searches read an index: on SQLite the trigram FTS5 tables of migration 2026_11_25_0001, which the
  // plan shows; on PostgreSQL the pg_trgm indexes of 2026_11_23_0801, which its planner prefers only once a table
  // is large, so there the test checks that each searched column has one.
  async function searchedThroughIndex(
    run: (db: Db) => Promise<unknown>,
    sqliteTable: string,
    pgIndexes: string[],
    searching: (query: { sql: string }) => boolean = (query) => /order by/i.test(query.sql),
  ) {
    if (t.dialect === 'postgres') {
      const { rows } = await sql<{ indexname: string }>`
        select indexname from pg_indexes where schemaname = current_schema() and indexdef like '%gin_trgm_ops%'`.execute(
        t.db,
      );
      expect(rows.map((row) => row.indexname)).toEqual(expect.arrayContaining(pgIndexes));
      return;
    }
    const sent = await plans(run);
    const page = sent.find(searching) ?? sent[0];
    expect(page?.plan).toContain(sqliteTable);
    return page?.plan;
  }

  it('searches sign-in emails among the distinct emails by trigram index, then their events by email', async () => {
    await recordLoginEvent(t.db, { email: 'seed-00012@bench.test', role: 'trainee', event: 'login', ip: null });
    const search = (db: Db) =>
      listLoginEvents(db, { search: 'seed-00012' }, { sort: 'timestamp', dir: 'desc', page: 1, pageSize: 10 });
    await searchedThroughIndex(search, 'login_emails_search', ['login_emails_trgm_idx'], (query) =>
      /from "login_emails"/.test(query.sql),
    );
    if (t.dialect === 'sqlite') {
      const events = (await plans(search)).find((query) => /order by/i.test(query.sql));
      expect(events?.plan).toMatch(/USING INDEX login_events_email/);
    }
  });

  it('lists trainees in name order by walking the (role, name) index', async () => {
    const [people] = await plans((db) => searchTrainees(db, '', 20));
    expect(people?.plan).toContain('users_role_name_idx');
    expect(people?.plan).not.toMatch(/TEMP B-TREE|Sort Key/);
  });

  it('searches audit details through a trigram index', async () => {
    await searchedThroughIndex(
      (db) =>
        listAuditEntries(db, { details: 'variant 12' }, { sort: 'timestamp', dir: 'desc', page: 1, pageSize: 10 }),
      'audit_log_search',
      ['audit_log_details_trgm_idx'],
    );
  });

  it('searches Training Progress by person through the people found, then their runs by index', async () => {
    await t.createUser({ email: 'seed-00012@bench.test' });
    const search = (db: Db) =>
      listTrainingProgress(db, { search: 'seed-00012' }, { sort: 'started', dir: 'desc', page: 1, pageSize: 10 });
    await searchedThroughIndex(search, 'users_search', ['users_email_trgm_idx', 'users_name_trgm_idx'], (query) =>
      /users_search/.test(query.sql),
    );
    if (t.dialect === 'sqlite') {
      const runs = (await plans(search)).find((query) => /order by/i.test(query.sql));
      expect(runs?.plan).toMatch(/runs_user_started_idx|runs_user_scenario|runs_user_started_id_idx/);
    }
  });

  // Migration 2026_11_26_0300: the programmes lists and pickers.
  const programmesList = { includeArchived: true, search: '', page: 1, pageSize: 10 };
  it.each([
    ['cohorts', (db: Db) => listCohorts(db, programmesList), 'cohorts_name_sort_idx'],
    [
      'active cohorts',
      (db: Db) => listCohorts(db, { ...programmesList, includeArchived: false }),
      'cohorts_name_sort_idx',
    ],
    [
      'active learning paths',
      (db: Db) => listPaths(db, { ...programmesList, includeArchived: false }),
      'learning_paths_name_sort_idx',
    ],
    ['learning paths', (db: Db) => listPaths(db, programmesList), 'learning_paths_name_sort_idx'],
    ['scenario choices', (db: Db) => scenarioChoices(db, '', 21), 'scenarios_name_sort_idx'],
  ] as const)('lists the %s by name with an index walk', async (_name, run, index) => {
    // An empty list sends no page query.
    const admin = await t.createUser({ role: 'admin' });
    const at = new Date().toISOString();
    await insertCohort(t.db, { id: randomUUID(), name: 'Tier one', createdBy: admin.id, at });
    await insertPath(t.db, {
      id: randomUUID(),
      name: 'Phishing',
      description: '',
      unlock: 'open',
      createdBy: admin.id,
      at,
    });
    const page = (await plans(run)).find((query) => /order by/i.test(query.sql));
    expect(page?.plan).toContain(index);
    expect(page?.plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key/);
  });

  it.each([
    [
      'cohorts',
      (db: Db) => listCohorts(db, { ...programmesList, search: 'tier one' }),
      'cohorts_search',
      'cohorts_name_trgm_idx',
    ],
    [
      'learning paths',
      (db: Db) => listPaths(db, { ...programmesList, search: 'phishing' }),
      'learning_paths_search',
      'learning_paths_name_trgm_idx',
    ],
    ['scenarios', (db: Db) => scenarioChoices(db, 'phishing', 21), 'scenarios_search', 'scenarios_name_trgm_idx'],
  ] as const)('searches the %s by name through a trigram index', async (_name, run, table, pgIndex) => {
    await searchedThroughIndex(run, table, [pgIndex], (query) => query.sql.includes(table));
  });
});
