import { sql } from 'kysely';
import type { Db, Dialect } from '../../apps/server/src/db/database';
import { runTraineeLoad } from '../answer/load';
import { createBenchDatabase } from '../lib/database';
import { log, PORTS, round } from '../lib/env';
import type { AckedAnswer } from '../lib/play';
import { seededRandom } from '../lib/random';
import { table, type Section, type Target } from '../lib/report';
import { startServer, type RunningServer } from '../lib/server';
import { createTrainees } from '../lib/trainees';

export interface CrashOptions {
  quick: boolean;
  dialects: Dialect[];
  repetitions?: number;
  trainees?: number;
  seed?: number;
}

interface Repetition {
  dialect: Dialect;
  repetition: number;
  killAfterMs: number;
  ackedThisTime: number;
  /** Time from SIGKILL to the restarted server answering /api/health. */
  restartMs: number;
  check: CheckResult;
}

interface CheckResult {
  /** Every answer acknowledged so far (all repetitions). */
  acked: number;
  found: number;
  missing: string[];
  mismatched: string[];
  runsChecked: number;
  scoreMismatches: string[];
  stateMismatches: string[];
  integrity: string;
}

export async function crashCampaign(options: CrashOptions): Promise<Section> {
  const started = Date.now();
  const repetitions = options.repetitions ?? (options.quick ? 5 : 20);
  const traineeCount = options.trainees ?? 50;
  const seed = options.seed ?? 20261121;
  const random = seededRandom(seed);
  const results: Repetition[] = [];

  for (const dialect of options.dialects) {
    const database = await createBenchDatabase(dialect, 'crash');
    let server: RunningServer | undefined;
    try {
      const setup = await database.open();
      const trainees = await createTrainees(setup.db, traineeCount, 'crash');
      await setup.db.destroy();
      const acked: AckedAnswer[] = [];
      server = await startServer({ port: PORTS.crash, env: database.env });
      for (let repetition = 1; repetition <= repetitions; repetition += 1) {
        const killAfterMs = Math.round(500 + random() * 3500);
        const before = acked.length;
        const running = server;
        let killedAt = 0;
        await runTraineeLoad({
          url: running.url,
          trainees,
          seconds: 60, // an upper bound: the kill ends the load long before
          timeoutSeconds: 5,
          onAck: (ack) => acked.push(ack),
          onStart(stop) {
            setTimeout(() => {
              killedAt = performance.now();
              void running.kill().then(stop);
            }, killAfterMs);
          },
        });
        const restarted = await startServer({ port: PORTS.crash, env: database.env });
        const restartMs = Math.round(performance.now() - killedAt);
        server = restarted;
        const handle = await database.open({ migrate: false, pgPoolSize: 2 });
        let check: CheckResult;
        try {
          check = await checkDatabase(handle.db, dialect, acked);
        } finally {
          await handle.db.destroy();
        }
        results.push({ dialect, repetition, killAfterMs, ackedThisTime: acked.length - before, restartMs, check });
        log(
          `crash/${dialect} #${repetition}: killed after ${killAfterMs} ms with ${acked.length - before} answers acknowledged; ` +
            `found ${check.found}/${check.acked}, score mismatches ${check.scoreMismatches.length}, integrity ${check.integrity}`,
        );
      }
    } finally {
      await server?.stop();
      await database.drop();
    }
  }
  return crashSection(results, { quick: options.quick, repetitions, traineeCount, seed, started });
}

/** Every acknowledged answer is stored as acknowledged; every run's score agrees with its decisions' credits. */
async function checkDatabase(db: Db, dialect: Dialect, acked: AckedAnswer[]): Promise<CheckResult> {
  const decisions = await db
    .selectFrom('run_decisions')
    .select(['run_id', 'seq', 'step_id', 'option_index', 'correct', 'technique', 'credit_thousandths'])
    .orderBy('run_id')
    .orderBy('seq')
    .execute();
  const byKey = new Map(decisions.map((decision) => [`${decision.run_id}#${decision.seq}`, decision]));
  const missing: string[] = [];
  const mismatched: string[] = [];
  for (const ack of acked) {
    const stored = byKey.get(`${ack.runId}#${ack.seq}`);
    if (!stored) missing.push(`${ack.runId}#${ack.seq}`);
    else if (
      stored.step_id !== ack.stepId ||
      stored.option_index !== ack.optionIndex ||
      (stored.correct === 1) !== ack.correct
    ) {
      mismatched.push(`${ack.runId}#${ack.seq}`);
    }
  }

  const runs = await db
    .selectFrom('runs')
    .select(['id', 'score_thousandths', 'current_step_id', 'current_answered', 'last_option_index'])
    .execute();
  const perRun = new Map<string, typeof decisions>();
  for (const decision of decisions) {
    const list = perRun.get(decision.run_id) ?? [];
    list.push(decision);
    perRun.set(decision.run_id, list);
  }
  const scoreMismatches: string[] = [];
  const stateMismatches: string[] = [];
  for (const run of runs) {
    const list = perRun.get(run.id) ?? [];
    // The score is the sum of the decisions' credits (no written answer is graded during the campaign).
    const credited = list.reduce((sum, decision) => sum + decision.credit_thousandths, 0);
    if (run.score_thousandths !== credited) {
      scoreMismatches.push(
        `${run.id}: score ${run.score_thousandths} vs ${credited} thousandths of credit in its decisions`,
      );
    }
    // Sequence numbers run 1..n without gaps, and an answered step is the latest decision.
    if (list.some((decision, index) => decision.seq !== index + 1))
      stateMismatches.push(`${run.id}: decision numbers have gaps`);
    const last = list.at(-1);
    if (
      run.current_answered === 1 &&
      (!last || last.step_id !== run.current_step_id || last.option_index !== run.last_option_index)
    ) {
      stateMismatches.push(`${run.id}: answered step ${run.current_step_id} has no matching latest decision`);
    }
  }

  let integrity: string;
  if (dialect === 'sqlite') {
    const result = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    const foreign = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(db);
    integrity = `integrity_check: ${result.rows.map((row) => row.integrity_check).join('; ')}; foreign_key_check: ${foreign.rows.length === 0 ? 'ok' : `${foreign.rows.length} rows`}`;
  } else {
    integrity = await postgresIntegrity(db);
  }
  return {
    acked: acked.length,
    found: acked.length - missing.length,
    missing: missing.slice(0, 10),
    mismatched: mismatched.slice(0, 10),
    runsChecked: runs.length,
    scoreMismatches: scoreMismatches.slice(0, 10),
    stateMismatches: stateMismatches.slice(0, 10),
    integrity,
  };
}

/** PostgreSQL: every B-tree index of the database verified with amcheck (when it can be enabled), and no orphans. */
async function postgresIntegrity(db: Db): Promise<string> {
  const orphans = await sql<{ decisions: number; runs: number }>`
    select (select count(*) from run_decisions d where not exists (select 1 from runs r where r.id = d.run_id)) as decisions,
           (select count(*) from runs r where not exists (select 1 from users u where u.id = r.user_id)) as runs`.execute(
    db,
  );
  const orphanText = `orphans: ${orphans.rows[0]!.decisions} decisions, ${orphans.rows[0]!.runs} runs`;
  try {
    await sql`create extension if not exists amcheck`.execute(db);
    const indexes = await sql<{ name: string }>`
      select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
      join pg_am a on a.oid = c.relam join pg_namespace n on n.oid = c.relnamespace
      where a.amname = 'btree' and n.nspname = current_schema()`.execute(db);
    for (const index of indexes.rows) await sql`select bt_index_check(${index.name}::regclass, true)`.execute(db);
    return `amcheck bt_index_check(heapallindexed) on ${indexes.rows.length} indexes: ok; ${orphanText}`;
  } catch (error) {
    return `amcheck unavailable (${error instanceof Error ? error.message : String(error)}); ${orphanText}`;
  }
}

function crashSection(
  results: Repetition[],
  meta: { quick: boolean; repetitions: number; traineeCount: number; seed: number; started: number },
): Section {
  const targets: Target[] = [];
  const summary: (string | number)[][] = [];
  for (const dialect of [...new Set(results.map((result) => result.dialect))]) {
    const mine = results.filter((result) => result.dialect === dialect);
    const last = mine.at(-1)!.check;
    const everyCheckClean = mine.every(
      (result) =>
        result.check.missing.length === 0 &&
        result.check.mismatched.length === 0 &&
        result.check.scoreMismatches.length === 0 &&
        result.check.stateMismatches.length === 0 &&
        /ok/.test(result.check.integrity) &&
        !/unavailable|[1-9]\d* (decisions|runs|rows)/.test(result.check.integrity),
    );
    summary.push([
      dialect,
      mine.length,
      last.acked,
      last.found,
      mine.reduce((sum, result) => sum + result.check.scoreMismatches.length, 0),
      round(mine.reduce((sum, result) => sum + result.restartMs, 0) / mine.length / 1000, 2),
      last.integrity,
    ]);
    targets.push({
      name: `crash, ${dialect}: acknowledged answers found after ${mine.length} SIGKILLs`,
      target: 'all, scores agree, integrity ok',
      measured: `${last.found} / ${last.acked}${everyCheckClean ? '' : ' (problems: see the section)'}`,
      pass: everyCheckClean && last.found === last.acked,
    });
  }
  const problems = results.flatMap((result) => [
    ...result.check.missing.map((item) => `${result.dialect} #${result.repetition}: missing ${item}`),
    ...result.check.mismatched.map((item) => `${result.dialect} #${result.repetition}: stored differently ${item}`),
    ...result.check.scoreMismatches.map((item) => `${result.dialect} #${result.repetition}: ${item}`),
    ...result.check.stateMismatches.map((item) => `${result.dialect} #${result.repetition}: ${item}`),
  ]);
  const markdown = [
    `${meta.traineeCount} trainees play as in the answer benchmark; at a random moment (0.5-4 s in, seeded with ${meta.seed}) the`,
    'server gets SIGKILL, is started again on the same data (SQLite file in WAL mode / PostgreSQL database), and the',
    'database is checked: every answer the client saw acknowledged with 200 is stored with the same step, option and',
    "verdict; every run's score (in thousandths) equals the sum of its decisions' credits; decision numbers have no",
    'gaps and an answered step is the latest decision; SQLite passes',
    '`PRAGMA integrity_check` and `foreign_key_check`, PostgreSQL passes amcheck on every B-tree index and has no orphans.',
    'Acknowledged and found are cumulative over the repetitions (each check covers every earlier answer too).',
    '',
    table(
      [
        'database',
        'kills',
        'answers acknowledged',
        'found',
        'score mismatches',
        'mean restart s',
        'integrity (last check)',
      ],
      summary,
    ),
    '',
    table(
      [
        'database',
        '#',
        'killed after ms',
        'acknowledged in this round',
        'found / acknowledged so far',
        'runs checked',
        'restart ms',
      ],
      results.map((result) => [
        result.dialect,
        result.repetition,
        result.killAfterMs,
        result.ackedThisTime,
        `${result.check.found} / ${result.check.acked}`,
        result.check.runsChecked,
        result.restartMs,
      ]),
    ),
    ...(problems.length > 0
      ? ['', 'Problems found:', '', ...problems.slice(0, 30).map((problem) => `- ${problem}`)]
      : ['', 'No problem found.']),
  ].join('\n');
  return {
    id: 'crash',
    title: 'Crash campaign (SIGKILL under the answer load)',
    date: new Date().toISOString(),
    quick: meta.quick,
    durationSeconds: (Date.now() - meta.started) / 1000,
    targets,
    markdown,
    data: results,
  };
}
