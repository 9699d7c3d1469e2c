import type { Dialect } from '../../apps/server/src/db/database';
import { runBadInputCampaign, type CampaignReport } from '../../apps/server/test/campaigns/bad-input';
import { runStartsLimit, startRun } from '../../apps/server/src/features/runs/runs.service';
import { loadBuiltinScenarios } from '../../apps/server/src/features/scenarios/scenarios.loader';
import { createTestApp, type TestApp } from '../../apps/server/test/helper';
import { createBenchDatabase } from '../lib/database';
import { log, round } from '../lib/env';
import { table, type Section, type Target } from '../lib/report';

export interface BadInputOptions {
  quick: boolean;
  dialects: Dialect[];
  casesPerSeed?: number;
  seeds?: number[];
}

interface SeedResult {
  dialect: Dialect;
  seed: number;
  cases: number;
  seconds: number;
  routes: number;
  byStatus: Record<string, number>;
  /** fast-check's report of the first failing case (shrunk), or null. */
  failure: string | null;
}

const DEFAULT_SEEDS = [20261121, 1, 42, 777, 31337];

/**
 * The bad-input campaign of apps/server/test/campaigns/bad-input.ts (the one `npm test` runs 300 cases of),
 * at scale: thousands of generated requests per database, several seeds, each seed on a freshly migrated
 * database through app.inject().
 */
export async function badInputCampaign(options: BadInputOptions): Promise<Section> {
  const started = Date.now();
  const casesPerSeed = options.casesPerSeed ?? (options.quick ? 300 : 2000);
  const seeds = options.seeds ?? (options.quick ? DEFAULT_SEEDS.slice(0, 2) : DEFAULT_SEEDS);
  const results: SeedResult[] = [];
  const previousUrl = process.env.TEST_DATABASE_URL;
  try {
    for (const dialect of options.dialects) {
      const database = dialect === 'postgres' ? await createBenchDatabase('postgres', 'badinput') : null;
      if (database) process.env.TEST_DATABASE_URL = database.databaseUrl!;
      else delete process.env.TEST_DATABASE_URL;
      try {
        for (const seed of seeds) {
          const t = await createTestApp();
          await seedRecords(t);
          const seedStarted = Date.now();
          let report: CampaignReport | null = null;
          let failure: string | null = null;
          const byStatus: Record<string, number> = {};
          try {
            report = await runBadInputCampaign(t, { numRuns: casesPerSeed, seed, byStatus });
          } catch (error) {
            const cause =
              error instanceof Error && error.cause instanceof Error ? `\nCause: ${error.cause.message}` : '';
            failure = error instanceof Error ? `${error.message}${cause}`.slice(0, 2500) : String(error);
          } finally {
            await t.close();
          }
          const cases = report?.cases ?? Object.values(byStatus).reduce((sum, count) => sum + count, 0);
          results.push({
            dialect,
            seed,
            cases,
            seconds: round((Date.now() - seedStarted) / 1000, 1),
            routes: report?.routes ?? 0,
            byStatus,
            failure,
          });
          log(
            `bad-input/${dialect} seed ${seed}: ${cases} cases, ${JSON.stringify(byStatus)}${failure ? ` FAILED: ${failure.split('\n')[0]}` : ''}`,
          );
        }
      } finally {
        await database?.drop();
      }
    }
  } finally {
    if (previousUrl === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previousUrl;
  }
  return badInputSection(results, { quick: options.quick, casesPerSeed, started });
}

/** Real records for the campaign to aim at: the built-in scenarios and runs of a trainee it does not play as. */
async function seedRecords(t: TestApp): Promise<void> {
  await loadBuiltinScenarios(t.db, undefined, { warn: () => undefined });
  const owner = await t.createUser({ role: 'student' });
  const scenarios = await t.db.selectFrom('scenarios').select('id').limit(2).execute();
  for (const scenario of scenarios) {
    await startRun(t.db, owner, { scenarioId: scenario.id }, runStartsLimit(t.config.runStartsPerMinute));
  }
}

function badInputSection(
  results: SeedResult[],
  meta: { quick: boolean; casesPerSeed: number; started: number },
): Section {
  const targets: Target[] = [];
  const statuses = [...new Set(results.flatMap((result) => Object.keys(result.byStatus)))].sort();
  for (const dialect of [...new Set(results.map((result) => result.dialect))]) {
    const mine = results.filter((result) => result.dialect === dialect);
    const cases = mine.reduce((sum, result) => sum + result.cases, 0);
    const failures = mine.filter((result) => result.failure !== null).length;
    const fiveHundreds = mine.reduce(
      (sum, result) =>
        sum +
        Object.entries(result.byStatus)
          .filter(([status]) => Number(status) >= 500)
          .reduce((s, [, n]) => s + n, 0),
      0,
    );
    targets.push({
      name: `bad input, ${dialect}: generated requests answered 2xx or readable 4xx, nothing changed after a 4xx`,
      target: 'every case; no 5xx',
      measured: `${cases - failures} of ${cases} cases, ${fiveHundreds} × 5xx, ${failures} failing seed(s)`,
      pass: failures === 0 && fiveHundreds === 0,
    });
  }
  const markdown = [
    `\`runBadInputCampaign\` (apps/server/test/campaigns/bad-input.ts, fast-check): generated bodies (JSON of every shape,`,
    'deeply nested arrays, wrong types, text and multipart, content types that lie), query strings, path parameters (junk',
    "or the ids of real records: other users, another trainee's runs, the built-in scenarios), headers (Origin, forwarded",
    `addresses, method overrides, ranges...) and cookies sent to every API route as anonymous, trainee and admin;`,
    `${meta.casesPerSeed} cases per seed, each seed on a freshly migrated database holding the built-in library and two runs.`,
    'Every answer must be a correct 2xx or a 4xx with a readable `error`, never a 5xx, and the stored records must be',
    'unchanged after a 4xx. `npm test` runs a fixed-seed slice of 300 cases.',
    '',
    table(
      ['database', 'seed', 'cases', 'routes', 'seconds', ...statuses.map((status) => `${status}`), 'result'],
      results.map((result) => [
        result.dialect,
        result.seed,
        result.cases,
        result.routes,
        result.seconds,
        ...statuses.map((status) => result.byStatus[status] ?? 0),
        result.failure ? 'FAILED' : 'ok',
      ]),
    ),
    ...results
      .filter((result) => result.failure)
      .map((result) => `\nFailure (${result.dialect}, seed ${result.seed}):\n\n\`\`\`\n${result.failure}\n\`\`\``),
  ].join('\n');
  return {
    id: 'bad-input',
    title: 'Bad-input campaign (fast-check, every API route)',
    date: new Date().toISOString(),
    quick: meta.quick,
    durationSeconds: (Date.now() - meta.started) / 1000,
    targets,
    markdown,
    data: results,
  };
}
