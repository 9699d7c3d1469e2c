import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';

// Migration 0060: the queries the pages benchmark (bench/pages) found sorting or scanning in step with the
// data now walk an index. The SQL is the repositories' own (audit, progress), written out.
describe('indexes for pages that must not grow with the data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function plan(query: string): Promise<string> {
    return t.db.connection().execute(async (connection) => {
      // PostgreSQL prefers a plain sort or scan on tables this small: forbid them to see what the indexes allow.
      if (t.dialect === 'postgres') {
        await sql`set enable_sort = off`.execute(connection);
        await sql`set enable_seqscan = off`.execute(connection);
      }
      const result = await sql.raw(`${t.dialect === 'postgres' ? 'explain' : 'explain query plan'} ${query}`).execute(connection);
      if (t.dialect === 'postgres') await sql`reset all`.execute(connection);
      return JSON.stringify(result.rows);
    });
  }

  it.each(['actor', 'action', 'details', 'screen'])('sorts the audit log by %s with an index walk', async (column) => {
    for (const dir of ['asc', 'desc']) {
      const text = await plan(`select id from audit_log order by lower(coalesce(${column}, '')) ${dir}, at ${dir}, id ${dir} limit 10`);
      expect(text).toContain(`audit_log_${column}_sort_idx`);
      expect(text).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key/);
    }
  });

  it("asks whether a trainee completed a scenario with the trainee's own runs only", async () => {
    const text = await plan(
      "select id from scenarios where deleted_at is null and not exists (select runs.id from runs where runs.scenario_id = scenarios.id and runs.user_id = 'u' and runs.status = 'completed')",
    );
    // An index led by user_id (SQLite picks runs_user_scenario_idx), never every run of the scenario.
    expect(text).toMatch(/runs_user_(scenario|started_id)_idx/);
    expect(text).not.toContain('runs_scenario_idx');
  });

  it("reads a user's runs newest first from one index", async () => {
    const text = await plan("select id from runs where user_id = 'u' order by started_at desc, id desc");
    expect(text).toContain('runs_user_started_id_idx');
    expect(text).not.toMatch(/TEMP B-TREE|Sort Key/);
  });
});
