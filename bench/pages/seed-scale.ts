// The data set of the pages benchmark: `scale` 1 = 10,000 users, 50 scenarios, 100,000 runs (about 300,000
// decisions), 1,000,000 sign-in events and 100,000 audit entries. Users and sign-in events come from the
// project's seed script (apps/server/scripts/seed.ts, run as is); scenarios, runs, decisions and audit entries
// are added here with batched inserts straight through the drivers. Run on its own with
// `npx tsx bench/pages/seed-scale.ts --scale 1` (DATA_DIR / DATABASE_URL as for the server).
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import SQLite, { type BetterSqlite3 } from '../../apps/server/src/db/sqlite-driver';
import pg from 'pg';
import type { ScenarioDefinition } from '@tradecraft/shared';
import { loadConfig } from '../../apps/server/src/config';
import { withSecondaryIndexesRebuilt } from '../../apps/server/src/db/bulk-load';
import { migrateToLatest, openDatabase, type Dialect } from '../../apps/server/src/db/database';
import { hashPassword } from '../../apps/server/src/features/auth/passwords';
import { loadBuiltinScenarios } from '../../apps/server/src/features/scenarios/scenarios.loader';
import { log, ROOT } from '../lib/env';
import { seededRandom } from '../lib/random';

export const PAGES_TRAINEE = { email: 'pages-trainee@bench.test', password: 'Pages!Trainee1' };
export const PAGES_ADMIN = { email: 'pages-admin@bench.test', password: 'Pages!Admin2026' };
/** The trainee whose dashboard is measured holds the same runs at every scale. */
const TRAINEE_RUNS = 20;
/**
 * Training programmes (docs/programmes.md) measured at every scale: a cohort of COHORT_SIZE members (the trainee
 * among them) with its assignments, a learning path of PATH_LENGTH built-in scenarios, and the item analysis of a
 * built-in scenario. Cohorts, paths, assignments and certificates around them grow with the scale.
 */
export const PAGES_COHORT_ID = 'bec0c0c0-0000-4000-8000-000000000001';
export const PAGES_PATH_ID = 'bec0c0c0-0000-4000-8000-000000000002';
/** A built-in scenario (content/scenarios/): its runs, one in fifty at every scale, are analysed. */
export const PAGES_ANALYSIS_SCENARIO = 'aitm-phishing-invoice-fraud';
const COHORT_SIZE = 30;
const PATH_LENGTH = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ScaleCounts {
  users: number;
  events: number;
  scenarios: number;
  runs: number;
  decisions: number;
  audit: number;
  cohorts?: number;
  paths?: number;
  assignments?: number;
}

export const countsFor = (scale: number) => ({
  users: Math.round(10_000 * scale),
  events: Math.round(1_000_000 * scale),
  scenarios: Math.round(50 * scale),
  runs: Math.round(100_000 * scale),
  audit: Math.round(100_000 * scale),
  cohorts: Math.max(2, Math.round(20 * scale)),
  paths: Math.max(2, Math.round(10 * scale)),
});

export interface SeedTarget {
  dialect: Dialect;
  /** DATA_DIR (SQLite) or DATABASE_URL (PostgreSQL), as the server gets them. */
  env: Record<string, string>;
  sqliteFile: string | null;
  databaseUrl: string | null;
}

/** Rows written through one driver in big batches; columns in a fixed order. */
interface Writer {
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  close(): Promise<void>;
}

function sqliteWriter(file: string): Writer {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    async insert(table, columns, rows) {
      const key = `${table}(${columns.join(',')})`;
      let statement = statements.get(key);
      if (!statement) {
        statement = db.prepare(
          `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
        );
        statements.set(key, statement);
      }
      const insertAll = db.transaction((batch: unknown[][]) => {
        for (const row of batch) statement!.run(row);
      });
      insertAll(rows);
    },
    async close() {
      db.close();
    },
  };
}

function postgresWriter(url: string, types: Record<string, string[]>): Writer {
  const client = new pg.Client({ connectionString: url });
  const ready = client.connect();
  return {
    async insert(table, columns, rows) {
      await ready;
      const columnTypes = types[table]!;
      // One statement per 20,000 rows: every column travels as one array (unnest), not 20,000 × n parameters.
      for (let start = 0; start < rows.length; start += 20_000) {
        const batch = rows.slice(start, start + 20_000);
        const arrays = columns.map((_, index) => batch.map((row) => row[index]));
        const unnest = columnTypes.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
        await client.query(`insert into ${table} (${columns.join(', ')}) select * from unnest(${unnest})`, arrays);
      }
    },
    async close() {
      await ready;
      await client.end();
    },
  };
}

const PG_TYPES: Record<string, string[]> = {
  scenarios: ['text', 'text', 'text', 'int', 'text', 'text', 'int', 'text', 'text', 'text', 'text'],
  runs: [
    'text',
    'text',
    'text',
    'text',
    'int',
    'text',
    'int',
    'int',
    'int',
    'int',
    'int',
    'int',
    'text',
    'text',
    'text',
    'text',
    'text',
  ],
  cohorts: ['text', 'text', 'text', 'text', 'text'],
  cohort_members: ['text', 'text', 'text'],
  learning_paths: ['text', 'text', 'text', 'text', 'text', 'text'],
  learning_path_steps: ['text', 'int', 'text'],
  assignments: ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text'],
  certificates: ['text', 'text', 'text', 'text', 'text', 'text', 'text'],
  run_decisions: ['text', 'int', 'text', 'int', 'int', 'text', 'text', 'text', 'int', 'text', 'text', 'int'],
  audit_log: ['text', 'text', 'text', 'text', 'text'],
  users: ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'int', 'int', 'text', 'text'],
};

function runSeedScript(target: SeedTarget, users: number, events: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/scripts/seed.ts', '--users', String(users), '--events', String(events)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, ...target.env },
      },
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`apps/server/scripts/seed.ts exited with ${code}`)),
    );
  });
}

export async function seedScale(target: SeedTarget, scale: number): Promise<ScaleCounts> {
  const counts = countsFor(scale);
  const random = seededRandom(Math.round(scale * 1000) + 7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  log(
    `seed ×${scale}: ${counts.users.toLocaleString('en')} users and ${counts.events.toLocaleString('en')} sign-in events (apps/server/scripts/seed.ts)`,
  );
  await runSeedScript(target, counts.users, counts.events);

  // The app's own code loads the built-in library and reads back what the seed script wrote.
  const handle = openDatabase(
    target.databaseUrl ? { databaseUrl: target.databaseUrl } : { sqliteFile: target.sqliteFile! },
  );
  await migrateToLatest(handle.db);
  await loadBuiltinScenarios(handle.db, undefined, { warn: () => undefined });
  const builtins = await handle.db
    .selectFrom('scenarios')
    .select(['id', 'name', 'definition', 'current_version_id'])
    .orderBy('id')
    .execute();
  const students = (
    await handle.db.selectFrom('users').select('id').where('role', '=', 'student').where('disabled', '=', 0).execute()
  ).map((row) => row.id);
  const adminRows = await handle.db.selectFrom('users').select(['id', 'email']).where('role', '=', 'admin').execute();
  const admins = adminRows.map((row) => row.email);
  await handle.db.destroy();

  const writer =
    target.dialect === 'postgres' ? postgresWriter(target.databaseUrl!, PG_TYPES) : sqliteWriter(target.sqliteFile!);
  try {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();

    // The two accounts the pages are measured as.
    const [traineeHash, adminHash] = await Promise.all([
      hashPassword(PAGES_TRAINEE.password),
      hashPassword(PAGES_ADMIN.password),
    ]);
    const traineeId = randomUUID();
    const created = iso(now - 400 * DAY_MS);
    await writer.insert(
      'users',
      [
        'id',
        'email',
        'password_hash',
        'first_name',
        'last_name',
        'designation',
        'role',
        'disabled',
        'failed_attempts',
        'created_at',
        'updated_at',
      ],
      [
        [
          traineeId,
          PAGES_TRAINEE.email,
          traineeHash,
          'Page',
          'Trainee',
          'SOC Analyst',
          'student',
          0,
          0,
          created,
          created,
        ],
        [randomUUID(), PAGES_ADMIN.email, adminHash, 'Page', 'Admin', 'SOC Lead', 'admin', 0, 0, created, created],
      ],
    );

    // Scenarios: copies of the built-in library under new ids, up to the scale's count (built-ins included).
    const definitions = builtins.map((row) => JSON.parse(row.definition) as ScenarioDefinition);
    const scenarioRows: unknown[][] = [];
    // A built-in's runs record its (only) version, as runs started by the app do; the copies have no versions.
    const scenarios: { id: string; name: string; definition: ScenarioDefinition; versionId: string | null }[] =
      builtins.map((row, index) => ({
        id: row.id,
        name: row.name,
        definition: definitions[index]!,
        versionId: row.current_version_id,
      }));
    for (let index = 0; scenarios.length < counts.scenarios; index += 1) {
      const base = definitions[index % definitions.length]!;
      const id = `bench-${String(index + 1).padStart(4, '0')}-${base.id}`.slice(0, 64);
      const definition: ScenarioDefinition = { ...base, id, name: `${base.name} (variant ${index + 1})` };
      const json = JSON.stringify(definition);
      const at = iso(now - Math.floor(random() * 300 * DAY_MS));
      scenarioRows.push([
        id,
        definition.name,
        definition.type,
        definition.difficulty,
        definition.description,
        json,
        definition.steps.length,
        'upload',
        createHash('sha256').update(json).digest('hex'),
        at,
        at,
      ]);
      scenarios.push({ id, name: definition.name, definition, versionId: null });
    }
    if (scenarioRows.length > 0) {
      await writer.insert(
        'scenarios',
        [
          'id',
          'name',
          'type',
          'difficulty',
          'description',
          'definition',
          'step_count',
          'origin',
          'content_hash',
          'created_at',
          'updated_at',
        ],
        scenarioRows,
      );
    }

    // Runs and their decisions, written in slices so memory stays flat at 1,000,000 runs.
    const runColumns = [
      'id',
      'user_id',
      'scenario_id',
      'scenario_name',
      'step_count',
      'current_step_id',
      'current_answered',
      'last_option_index',
      'score_thousandths',
      'percent_base',
      'played_steps',
      'best_path_steps',
      'status',
      'started_at',
      'finished_at',
      'updated_at',
      'version_id',
    ];
    const decisionColumns = [
      'run_id',
      'seq',
      'step_id',
      'option_index',
      'correct',
      'decision',
      'feedback',
      'technique',
      'time_ms',
      'at',
      'kind',
      'credit_thousandths',
    ];
    let decisions = 0;
    const inProgress = new Set<string>();
    const SLICE = 50_000;
    const spanMs = 365 * DAY_MS;
    // The history tables are written with their secondary indexes dropped and built again afterwards.
    const history = openDatabase(
      target.databaseUrl ? { databaseUrl: target.databaseUrl } : { sqliteFile: target.sqliteFile! },
    );
    await withSecondaryIndexesRebuilt(history.db, ['runs', 'run_decisions', 'audit_log'], async () => {
      for (let start = 0; start < counts.runs + TRAINEE_RUNS; start += SLICE) {
        const runRows: unknown[][] = [];
        const decisionRows: unknown[][] = [];
        for (let index = start; index < Math.min(start + SLICE, counts.runs + TRAINEE_RUNS); index += 1) {
          const mine = index >= counts.runs; // the measured trainee's runs come last, on the first built-ins
          const scenario = mine ? scenarios[(index - counts.runs) % builtins.length]! : pick(scenarios);
          const steps = scenario.definition.steps;
          const userId = mine ? traineeId : pick(students);
          const roll = random();
          const rolled = roll < 0.6 ? 'completed' : roll < 0.85 ? 'in_progress' : 'ended';
          // A person has at most one run of a scenario in progress (the product's rule, held by a unique index).
          const inProgressKey = `${userId}\u0000${scenario.id}`;
          const status = rolled === 'in_progress' && inProgress.has(inProgressKey) ? 'ended' : rolled;
          if (status === 'in_progress') inProgress.add(inProgressKey);
          const startedMs = mine
            ? now - (TRAINEE_RUNS - (index - counts.runs)) * DAY_MS
            : now - spanMs + Math.floor(((index + random()) / counts.runs) * spanMs);
          const answered =
            status === 'completed'
              ? Math.min(steps.length, 2 + Math.floor(random() * 5))
              : Math.floor(random() * Math.min(4, steps.length));
          const runId = randomUUID();
          let score = 0;
          for (let seq = 1; seq <= answered; seq += 1) {
            const step = steps[seq - 1]!;
            // A choice step gets a real option; other kinds a full or empty credit, as their answers' text is not read here.
            const optionIndex =
              step.kind !== 'choice'
                ? -1
                : random() < 0.65
                  ? step.correct_option
                  : Math.floor(random() * step.options.length);
            const correct = step.kind === 'choice' ? optionIndex === step.correct_option : random() < 0.65;
            if (correct) score += 1;
            const decision = step.kind === 'choice' ? step.options[optionIndex]!.text : 'An answer';
            decisionRows.push([
              runId,
              seq,
              step.id,
              optionIndex,
              correct ? 1 : 0,
              decision,
              correct ? '✅ Correct!' : '❌ Incorrect.',
              step.mitre_attack ?? null,
              4000 + Math.floor(random() * 60_000),
              iso(startedMs + seq * 60_000),
              step.kind,
              correct ? 1000 : 0,
            ]);
          }
          decisions += answered;
          const finished = status === 'in_progress' ? null : iso(startedMs + (answered + 1) * 60_000);
          runRows.push([
            runId,
            userId,
            scenario.id,
            scenario.name,
            steps.length,
            steps[Math.min(answered, steps.length - 1)]!.id,
            0,
            null,
            score * 1000,
            status === 'completed' ? answered : steps.length,
            answered,
            steps.length,
            status,
            iso(startedMs),
            finished,
            finished ?? iso(startedMs),
            scenario.versionId,
          ]);
        }
        await writer.insert('runs', runColumns, runRows);
        await writer.insert('run_decisions', decisionColumns, decisionRows);
      }

      // Audit entries, oldest first, from the admins of the seeded set.
      const actions: [string, string, (n: number) => string][] = [
        [
          'approve user',
          'Pending Approvals',
          (n) => `Approved seed-${String(n).padStart(6, '0')}@seed.tradecraft.test as student`,
        ],
        [
          'update user',
          'Manage Users',
          (n) => `Changed designation of seed-${String(n).padStart(6, '0')}@seed.tradecraft.test`,
        ],
        ['delete scenario', 'Scenario Configurator', (n) => `Deleted scenario "Variant ${n}" (bench-${n})`],
        [
          'upload scenario',
          'Upload Scenario',
          (n) => `Uploaded scenario "Variant ${n}" from variant-${n}.yaml, 4096 bytes, 6 steps`,
        ],
        ['change difficulty', 'Difficulty Adjuster', (n) => `Platform difficulty set to ${(n % 5) + 1}`],
        ['export login activity', 'User Monitoring', () => 'Exported user_login_logs.csv'],
      ];
      const actors = admins.length > 0 ? admins : [PAGES_ADMIN.email];
      for (let start = 0; start < counts.audit; start += SLICE) {
        const rows: unknown[][] = [];
        for (let index = start; index < Math.min(start + SLICE, counts.audit); index += 1) {
          const [action, screen, details] = pick(actions);
          rows.push([
            pick(actors),
            action,
            details(index + 1),
            screen,
            iso(now - spanMs + Math.floor(((index + random()) / counts.audit) * spanMs)),
          ]);
        }
        await writer.insert('audit_log', ['actor', 'action', 'details', 'screen', 'at'], rows);
      }
    }).finally(() => history.db.destroy());
    const programmes = await seedProgrammes(writer, {
      counts,
      random,
      now,
      traineeId,
      students,
      adminId: adminRows[0]?.id ?? null,
      builtins: builtins.map((row) => row.id),
      scenarios: scenarios.map((scenario) => scenario.id),
    });

    log(
      `seed ×${scale}: ${scenarios.length} scenarios, ${(counts.runs + TRAINEE_RUNS).toLocaleString('en')} runs, ${decisions.toLocaleString('en')} decisions, ${counts.audit.toLocaleString('en')} audit entries`,
    );
    return {
      users: counts.users + 2,
      events: counts.events,
      scenarios: scenarios.length,
      runs: counts.runs + TRAINEE_RUNS,
      decisions,
      audit: counts.audit,
      ...programmes,
    };
  } finally {
    await writer.close();
    await analyze(target);
  }
}

/**
 * Cohorts (the measured one first, with the trainee), learning paths of built-in scenarios (the measured one first),
 * assignments to cohorts and to single trainees (some overdue), and certificates.
 */
async function seedProgrammes(
  writer: Writer,
  input: {
    counts: ReturnType<typeof countsFor>;
    random: () => number;
    now: number;
    traineeId: string;
    students: string[];
    adminId: string | null;
    builtins: string[];
    scenarios: string[];
  },
): Promise<{ cohorts: number; paths: number; assignments: number }> {
  const { counts, random, now, traineeId, students, adminId, builtins, scenarios } = input;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const iso = (ms: number) => new Date(ms).toISOString();
  const created = iso(now - 60 * DAY_MS);

  const pathIds = Array.from({ length: counts.paths }, (_, index) => (index === 0 ? PAGES_PATH_ID : randomUUID()));
  const pathNames = new Map(pathIds.map((id, index) => [id, `Bench path ${index + 1}`]));
  await writer.insert(
    'learning_paths',
    ['id', 'name', 'description', 'unlock', 'created_at', 'updated_at'],
    pathIds.map((id, index) => [
      id,
      pathNames.get(id)!,
      'Seeded by the pages benchmark.',
      index % 2 === 0 ? 'sequential' : 'open',
      created,
      created,
    ]),
  );
  const stepRows: unknown[][] = [];
  for (const [index, pathId] of pathIds.entries()) {
    const chosen = new Set<string>();
    // The measured path holds the first built-ins (the trainee's runs are on them); the others random scenarios.
    while (chosen.size < Math.min(PATH_LENGTH, builtins.length))
      chosen.add(index === 0 ? builtins[chosen.size]! : pick(scenarios));
    [...chosen].forEach((scenarioId, position) => stepRows.push([pathId, position, scenarioId]));
  }
  await writer.insert('learning_path_steps', ['path_id', 'position', 'scenario_id'], stepRows);

  const cohortIds = Array.from({ length: counts.cohorts }, (_, index) =>
    index === 0 ? PAGES_COHORT_ID : randomUUID(),
  );
  await writer.insert(
    'cohorts',
    ['id', 'name', 'created_at', 'updated_at', 'archived_at'],
    cohortIds.map((id, index) => [id, `Bench cohort ${index + 1}`, created, created, null]),
  );
  const memberRows: unknown[][] = [];
  for (const cohortId of cohortIds) {
    const members = new Set<string>(cohortId === PAGES_COHORT_ID ? [traineeId] : []);
    while (members.size < Math.min(COHORT_SIZE, students.length + 1)) members.add(pick(students));
    for (const userId of members) memberRows.push([cohortId, userId, created]);
  }
  await writer.insert('cohort_members', ['cohort_id', 'user_id', 'added_at'], memberRows);

  // Each cohort: two scenarios and two paths (one past due); one trainee in ten: a scenario of their own; the
  // measured trainee: three of their own, the same at every scale.
  const assignmentRows: unknown[][] = [];
  const assignment = (target: { cohortId?: string; userId?: string }, scenarioId: string | null, dueDays: number) =>
    assignmentRows.push([
      randomUUID(),
      scenarioId,
      scenarioId ? null : pick(pathIds),
      target.cohortId ?? null,
      target.userId ?? null,
      'Seeded by the pages benchmark.',
      iso(now + dueDays * DAY_MS),
      adminId,
      created,
    ]);
  for (const cohortId of cohortIds) {
    const own = cohortId === PAGES_COHORT_ID;
    assignment({ cohortId }, own ? builtins[0]! : pick(scenarios), 7);
    assignment({ cohortId }, own ? builtins[1]! : pick(scenarios), -3);
    assignment({ cohortId }, null, 14);
    assignment({ cohortId }, null, -1);
  }
  for (let index = 0; index < Math.round(students.length / 10); index += 1)
    assignment({ userId: pick(students) }, pick(scenarios), Math.floor(random() * 20) - 10);
  for (const [index, scenarioId] of builtins.slice(2, 5).entries())
    assignment({ userId: traineeId }, scenarioId, index - 1);
  await writer.insert(
    'assignments',
    ['id', 'scenario_id', 'path_id', 'cohort_id', 'user_id', 'note', 'due_at', 'assigned_by', 'created_at'],
    assignmentRows,
  );

  // Certificates: one trainee in twenty holds one (never the measured trainee).
  const certificateRows: unknown[][] = [];
  const holders = new Set<string>();
  for (let index = 0; index < Math.round(students.length / 20); index += 1) {
    const userId = pick(students);
    if (holders.has(userId)) continue;
    holders.add(userId);
    const pathId = pick(pathIds);
    certificateRows.push([
      randomUUID(),
      randomUUID().replace(/-/g, ''),
      userId,
      pathId,
      'Seeded Trainee',
      pathNames.get(pathId)!,
      iso(now - Math.floor(random() * 60) * DAY_MS),
    ]);
  }
  if (certificateRows.length > 0)
    await writer.insert(
      'certificates',
      ['id', 'code', 'user_id', 'path_id', 'holder_name', 'path_name', 'issued_at'],
      certificateRows,
    );
  log(
    `seed: ${cohortIds.length} cohorts, ${pathIds.length} learning paths, ${assignmentRows.length} assignments, ${certificateRows.length} certificates`,
  );
  return { cohorts: cohortIds.length, paths: pathIds.length, assignments: assignmentRows.length };
}

/**
 * PostgreSQL: fresh planner statistics, as autovacuum gives a database that has lived with this data. SQLite:
 * no ANALYZE (the app never runs one, so its planner works without statistics), only the WAL folded in.
 */
async function analyze(target: SeedTarget): Promise<void> {
  if (target.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: target.databaseUrl! });
    await client.connect();
    await client.query('vacuum analyze');
    await client.end();
  } else {
    const db = new SQLite(target.sqliteFile!);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' } } });
  const config = loadConfig();
  const dataDir = path.resolve(config.dataDir);
  const target: SeedTarget = config.databaseUrl
    ? { dialect: 'postgres', env: {}, sqliteFile: null, databaseUrl: config.databaseUrl }
    : { dialect: 'sqlite', env: {}, sqliteFile: path.join(dataDir, 'tradecraft.db'), databaseUrl: null };
  const counts = await seedScale(target, Number(values.scale));
  console.log(counts);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
