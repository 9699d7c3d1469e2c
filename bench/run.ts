// `npm run bench [-- <part>...] [--quick] [--db sqlite|postgres|both] ...`: runs the benchmarks and the
// resilience campaigns and writes bench/results/latest.md. See bench/README.md for every option.
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from '../apps/server/src/db/sqlite-driver';
import type { Dialect } from '../apps/server/src/db/database';
import { answerBenchmark } from './answer/answer.bench';
import { badInputCampaign } from './campaigns/bad-input.campaign';
import { crashCampaign } from './campaigns/crash.campaign';
import { hostileFilesCampaign } from './campaigns/hostile-files.campaign';
import { browserBenchmark } from './browser/browser.bench';
import { pagesBenchmark } from './pages/pages.bench';
import { postgresAvailable } from './lib/database';
import { log, RESULTS_DIR } from './lib/env';
import { saveSection, SECTION_ORDER, writeLatest, type Section, type SectionId } from './lib/report';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: 'boolean', default: false },
    db: { type: 'string', default: 'both' },
    seconds: { type: 'string' },
    levels: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'product-main': { type: 'string' },
    'crash-reps': { type: 'string' },
    'bad-input-cases': { type: 'string' },
    'bad-input-seeds': { type: 'string' },
    scales: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

const USAGE = `npm run bench [-- <part>...] [options]

parts (default: all, in this order): ${SECTION_ORDER.join(', ')}

  --quick                 shorter windows, fewer repetitions and cases, a smaller data set (about 10 minutes)
  --db sqlite|postgres|both   databases to run on (default both; PostgreSQL at BENCH_PG_URL or
                          postgres://postgres@127.0.0.1:5432/postgres, skipped when unreachable)
  --seconds N             answer: measured seconds per point (default 15, quick 5)
  --levels 10,100,500     answer: concurrent trainees per point
  --profile               answer: also CPU-profile the product at 100 trainees on each database
  --product-main PATH     answer: measure another checkout's apps/server/src/main.ts (e.g. the code before a
                          fix); written to results/answer-before.json and shown beside the current figures
  --crash-reps N          crash: kills per database (default 20, quick 5)
  --bad-input-cases N     bad-input: cases per seed and database (default 2000, quick 300)
  --bad-input-seeds a,b   bad-input: fast-check seeds (default five fixed seeds, quick two)
  --scales 1,10           pages: data set sizes, 1 = 10,000 users, 50 scenarios, 100,000 runs, 1,000,000
                          sign-in events (default 1,10; quick 0.1,1)
  --skip-build            pages, browser: use the SPA already built in BENCH_WEB_DIST (/tmp/dist-h10)
`;

async function main(): Promise<void> {
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const unknown = positionals.filter((name) => !(SECTION_ORDER as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown part(s): ${unknown.join(', ')}\n\n${USAGE}`);
  const parts = (positionals.length > 0 ? positionals : [...SECTION_ORDER]) as SectionId[];
  const quick = values.quick ?? false;
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const list = (text: string | undefined) => text?.split(',').map((item) => Number(item.trim()));

  const pgVersion = await postgresAvailable();
  const wanted: Dialect[] =
    values.db === 'sqlite' ? ['sqlite'] : values.db === 'postgres' ? ['postgres'] : ['sqlite', 'postgres'];
  const dialects = wanted.filter((dialect) => dialect === 'sqlite' || pgVersion !== null);
  if (wanted.includes('postgres') && pgVersion === null)
    log('PostgreSQL is not reachable: PostgreSQL parts are skipped');
  const memory = new SQLite(':memory:');
  const sqliteVersion = (memory.prepare('select sqlite_version() as v').get() as { v: string }).v;
  memory.close();

  const startedAll = Date.now();
  for (const part of parts) {
    log(`=== ${part} ===`);
    let section: Section;
    switch (part) {
      case 'answer': {
        const productMain = values['product-main'];
        section = await answerBenchmark({
          quick,
          dialects,
          seconds: number(values.seconds),
          levels: list(values.levels),
          profile: values.profile,
          productMain,
        });
        if (productMain) {
          // The figures of other code are context for the current ones, not targets of their own.
          const figures = section.targets
            .map((target) => `- ${target.name}: ${target.measured} (target ${target.target})`)
            .join('\n');
          section = {
            ...section,
            id: 'answer-before',
            title: `${section.title}, before the fixes`,
            targets: [],
            markdown: `Measured with \`--product-main ${productMain}\` (the product as it was before the fixes described above).\n\n${figures}\n\n${section.markdown}`,
          };
        }
        break;
      }
      case 'pages':
        section = await pagesBenchmark({
          quick,
          dialects,
          scales: values.scales?.split(',').map(Number),
          skipBuild: values['skip-build'],
        });
        break;
      case 'browser':
        section = await browserBenchmark({ quick, skipBuild: values['skip-build'] });
        break;
      case 'crash':
        section = await crashCampaign({ quick, dialects, repetitions: number(values['crash-reps']) });
        break;
      case 'bad-input':
        section = await badInputCampaign({
          quick,
          dialects,
          casesPerSeed: number(values['bad-input-cases']),
          seeds: list(values['bad-input-seeds']),
        });
        break;
      case 'hostile-files':
        section = await hostileFilesCampaign({ quick });
        break;
    }
    saveSection(section);
    log(`${part}: ${section.targets.filter((target) => target.pass).length} of ${section.targets.length} targets met`);
  }
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  writeLatest({ sqlite: sqliteVersion, postgres: pgVersion }, command);
  log(`done in ${Math.round((Date.now() - startedAll) / 1000)} s: ${path.join(RESULTS_DIR, 'latest.md')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
