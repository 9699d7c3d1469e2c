import fs from 'node:fs';
import path from 'node:path';
import type { Dialect } from '../../apps/server/src/db/database';
import { createBenchDatabase } from '../lib/database';
import { log, PORTS, quantile, ROOT, round, tempDir } from '../lib/env';
import { categorizeCpuProfile, summarizeCpuProfile } from '../lib/profile';
import { table, type Section, type Target } from '../lib/report';
import { startServer, type RunningServer } from '../lib/server';
import { createTrainees } from '../lib/trainees';
import { runTraineeLoad, type LoadResult } from './load';
import { runPacedLoad, type PacedResult } from './paced';

export interface AnswerOptions {
  quick: boolean;
  dialects: Dialect[];
  levels?: number[];
  seconds?: number;
  warmupSeconds?: number;
  /** Also record a CPU profile of the product at 100 trainees on each database and list its hottest functions. */
  profile?: boolean;
  /** Another checkout's server entry (e.g. the code before a fix), measured instead of this one. */
  productMain?: string;
}

interface Point extends LoadResult {
  dialect: Dialect;
  server: 'product' | 'baseline';
  /** Which of the level's back-to-back pairs (baseline, then product) this window belongs to, from 1. */
  pair: number;
  /** The server's resident set at the end of the window and its peak so far (VmRSS, VmHWM), MiB. */
  rssMiB: number | null;
  peakMiB: number | null;
}

const TARGET_LEVEL = 100;
/**
 * Pairs of windows (baseline, then product) at the target level. One pair's ratio moves by a tenth from run to
 * run, mostly with the baseline's rate; the target is held to the median of the pairs' ratios.
 */
const TARGET_PAIRS = 3;

const dialectName = (dialect: Dialect) => (dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL');
const WEB_DIST = path.join(ROOT, 'apps', 'web', 'dist');
/** The issue's bound on start to healthy for a built tree (docs/operations.md). */
const READY_MS = 2000;

/**
 * Mean pauses of the paced trainees (paced.ts): one request a second each (a step answered and left every two
 * seconds, ten times a brisk reader's pace), and four a second.
 */
const PACES_MS = [1000, 250];
/** The pace whose p99 is held to the target. */
const TARGET_PACE_MS = 1000;

interface PacedPoint extends PacedResult {
  dialect: Dialect;
  server: 'product' | 'baseline';
}

interface Startup {
  dialect: Dialect;
  /** Median of three restarts, spawn to the first healthy answer. */
  readyMs: number;
}

export async function answerBenchmark(options: AnswerOptions): Promise<Section> {
  const started = Date.now();
  const levels = options.levels ?? [10, 100, 500];
  const seconds = options.seconds ?? (options.quick ? 5 : 15);
  const warmup = options.warmupSeconds ?? (options.quick ? 2 : 5);
  const points: Point[] = [];
  const paced: PacedPoint[] = [];
  const startups: Startup[] = [];
  const profileSummaries: string[] = [];

  for (const dialect of options.dialects) {
    const database = await createBenchDatabase(dialect, 'answer');
    let product: RunningServer | undefined;
    let baseline: RunningServer | undefined;
    try {
      const handle = await database.open();
      const trainees = await createTrainees(handle.db, Math.max(...levels), 'answer');
      await handle.db.destroy();
      log(`answer/${dialect}: ${trainees.length} trainees seated; starting product and baseline`);
      product = await startServer({ script: options.productMain, port: PORTS.answerProduct, env: database.env });
      baseline = await startServer({
        script: 'bench/answer/baseline-server.ts',
        port: PORTS.answerBaseline,
        env: database.env,
      });
      for (const level of levels) {
        const group = trainees.slice(0, level);
        const pairs = level === TARGET_LEVEL && !options.quick ? TARGET_PAIRS : 1;
        for (let pair = 1; pair <= pairs; pair += 1) {
          for (const [name, server] of [
            ['baseline', baseline],
            ['product', product],
          ] as const) {
            const result = await runTraineeLoad({
              url: server.url,
              trainees: group,
              seconds,
              warmupSeconds: warmup,
              serverPid: server.pid,
            });
            const memory = server.memory();
            points.push({
              dialect,
              server: name,
              pair,
              ...result,
              rssMiB: memory ? round(memory.rssMiB, 0) : null,
              peakMiB: memory ? round(memory.peakMiB, 0) : null,
            });
            log(
              `answer/${dialect} ${name} @${level}${pairs > 1 ? ` (pair ${pair} of ${pairs})` : ''}: ${result.requestsPerSecond} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, server cpu ${result.serverCpuMsPerRequest} ms/req, client cpu ${result.clientCpuMsPerRequest} ms/req, body ${result.meanBodyChars} chars, errors ${JSON.stringify(result.counters.errors)}, connection errors ${JSON.stringify(result.errorKinds)} ${JSON.stringify(result.byKind)}`,
            );
          }
        }
      }
      if (levels.includes(TARGET_LEVEL)) {
        for (const thinkMs of PACES_MS) {
          for (const [name, server] of [
            ['baseline', baseline],
            ['product', product],
          ] as const) {
            const result = await runPacedLoad({
              url: server.url,
              trainees: trainees.slice(0, TARGET_LEVEL),
              seconds,
              warmupSeconds: warmup,
              thinkMs,
              serverPid: server.pid,
            });
            paced.push({ dialect, server: name, ...result });
            log(
              `answer/${dialect} ${name} @${TARGET_LEVEL} paced ${thinkMs} ms: ${result.requestsPerSecond} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms, server cpu ${result.serverCpuMsPerRequest} ms/req, errors ${JSON.stringify(result.counters.errors)}, connection errors ${result.connectionErrors}`,
            );
          }
        }
      }
      // Start to healthy on a built tree: the product restarted on its database as it was left (migrations done,
      // the library loaded), as an operator's restart finds it; the median of three.
      await product.stop();
      product = undefined;
      const restarts: number[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        // With the web build served, as `npm start` serves it (the load itself runs without it).
        const restarted = await startServer({
          script: options.productMain,
          port: PORTS.answerProduct,
          env: { ...database.env, ...(fs.existsSync(WEB_DIST) ? { WEB_DIST_DIR: WEB_DIST } : {}) },
        });
        restarts.push(restarted.readyMs);
        await restarted.stop();
      }
      startups.push({
        dialect,
        readyMs: round(
          quantile(
            restarts.sort((a, b) => a - b),
            0.5,
          ),
          0,
        ),
      });
      log(`answer/${dialect}: start to healthy ${restarts.map((ms) => Math.round(ms)).join(', ')} ms`);
      if (options.profile) {
        const profileDir = tempDir('cpu-profile');
        product = await startServer({
          port: PORTS.answerProduct,
          env: database.env,
          nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
        });
        await runTraineeLoad({
          url: product.url,
          trainees: trainees.slice(0, TARGET_LEVEL),
          seconds,
          warmupSeconds: warmup,
        });
        await product.stop();
        product = undefined;
        const file = fs.readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
        if (file)
          profileSummaries.push(
            [
              `Where the product spends its CPU at ${TARGET_LEVEL} trainees on ${dialectName(dialect)} (\`node --cpu-prof\`, self time; the profile includes start-up), and its hottest functions:`,
              categorizeCpuProfile(path.join(profileDir, file)),
              summarizeCpuProfile(path.join(profileDir, file), 20),
            ].join('\n\n'),
          );
      }
    } finally {
      await product?.stop();
      await baseline?.stop();
      await database.drop();
    }
  }
  return answerSection(points, paced, startups, { quick: options.quick, seconds, warmup, started, profileSummaries });
}

function answerSection(
  points: Point[],
  paced: PacedPoint[],
  startups: Startup[],
  meta: { quick: boolean; seconds: number; warmup: number; started: number; profileSummaries: string[] },
): Section {
  const find = (dialect: Dialect, server: Point['server'], level: number, pair: number) =>
    points.find(
      (point) =>
        point.dialect === dialect && point.server === server && point.trainees === level && point.pair === pair,
    );
  const baseOf = (point: Point) => find(point.dialect, 'baseline', point.trainees, point.pair);
  const ratioOf = (point: Point, base = baseOf(point)) =>
    base ? round(point.requestsPerSecond / base.requestsPerSecond, 2) : Number.NaN;
  const rows: (string | number)[][] = [];
  const targets: Target[] = [];
  const products = points.filter((p) => p.server === 'product');
  const pairsAt = (dialect: Dialect, level: number) =>
    products.filter((point) => point.dialect === dialect && point.trainees === level);
  for (const point of products) {
    const base = baseOf(point);
    const pairs = pairsAt(point.dialect, point.trainees).length;
    rows.push([
      point.dialect,
      pairs > 1 ? `${point.trainees} (pair ${point.pair})` : point.trainees,
      point.requestsPerSecond,
      point.p50,
      point.p99,
      point.serverCpuMsPerRequest ?? '-',
      point.meanBodyChars,
      base?.requestsPerSecond ?? '-',
      base?.p50 ?? '-',
      base?.p99 ?? '-',
      base?.serverCpuMsPerRequest ?? '-',
      base?.meanBodyChars ?? '-',
      ratioOf(point, base),
      errorsText(point),
      point.rssMiB ?? '-',
      point.loadAverage,
    ]);
  }
  // The ratio targets take the median of the pairs at the target level (one pair in a quick run).
  const medianRatio = (dialect: Dialect) => {
    const ratios = pairsAt(dialect, TARGET_LEVEL)
      .map((point) => ratioOf(point))
      .sort((a, b) => a - b);
    return {
      median: ratios.length === 0 ? Number.NaN : round(quantile(ratios, 0.5), 2),
      text: ratios.length > 1 ? ` (median of ${ratios.join(', ')})` : '',
    };
  };
  if (pairsAt('sqlite', TARGET_LEVEL).length > 0) {
    const ratio = medianRatio('sqlite');
    const memory = pairsAt('sqlite', TARGET_LEVEL).filter((point) => point.rssMiB !== null);
    const rss = memory.length > 0 ? Math.max(...memory.map((point) => point.rssMiB!)) : null;
    const peak = memory.length > 0 ? Math.max(...memory.map((point) => point.peakMiB ?? 0)) : null;
    targets.push(
      {
        name: `answer path, ${TARGET_LEVEL} trainees, SQLite: product / baseline req/s`,
        target: '≥ 0.6',
        measured: `${ratio.median}${ratio.text}`,
        pass: ratio.median >= 0.6,
      },
      {
        name: `answer path, ${TARGET_LEVEL} trainees, SQLite: server RSS at the end of the window (the largest)`,
        target: '< 200 MB',
        measured: rss === null ? '-' : `${rss} MiB (peak ${peak} MiB)`,
        pass: rss !== null && rss * 1.048576 < 200,
      },
    );
  }
  if (pairsAt('postgres', TARGET_LEVEL).length > 0) {
    const ratio = medianRatio('postgres');
    targets.push({
      name: `answer path, ${TARGET_LEVEL} trainees, PostgreSQL: product / baseline req/s`,
      target: '≥ 0.7',
      measured: `${ratio.median}${ratio.text}`,
      pass: ratio.median >= 0.7,
    });
  }
  for (const point of pairsAt('sqlite', 500)) {
    targets.push({
      name: 'answer path, 500 trainees, SQLite: product connection errors',
      target: '0',
      measured: String(point.connectionErrors),
      pass: point.connectionErrors === 0,
    });
  }
  for (const point of paced.filter((p) => p.server === 'product' && p.thinkMs === TARGET_PACE_MS)) {
    if (point.dialect !== 'sqlite') continue;
    targets.push({
      name: `answer path, ${TARGET_LEVEL} trainees at a pace (a request a second each), SQLite: product p99`,
      target: '< 50 ms',
      measured: `${point.p99} ms`,
      pass: point.p99 < 50 && point.connectionErrors === 0,
    });
  }
  const pacedRows = paced
    .filter((point) => point.server === 'product')
    .map((point) => {
      const base = paced.find(
        (other) => other.server === 'baseline' && other.dialect === point.dialect && other.thinkMs === point.thinkMs,
      );
      return [
        point.dialect,
        point.trainees,
        `${point.thinkMs} ms`,
        point.requestsPerSecond,
        point.p50,
        point.p99,
        point.max,
        point.serverCpuMsPerRequest ?? '-',
        base?.p50 ?? '-',
        base?.p99 ?? '-',
        point.connectionErrors,
      ];
    });
  for (const startup of startups) {
    targets.push({
      name: `start to healthy, ${dialectName(startup.dialect)}: a restart of the compiled server (median of 3)`,
      target: `< ${READY_MS / 1000} s`,
      measured: `${startup.readyMs} ms`,
      pass: startup.readyMs < READY_MS,
    });
  }
  const mix = points.map((point) => [
    point.dialect,
    point.server,
    point.trainees,
    point.counters.start,
    point.counters.answer,
    point.counters.next,
    point.counters.completedRuns,
    errorKindsText(point),
    point.listenOverflows ?? '-',
  ]);
  const markdown = [
    `Simulated trainees, each one autocannon connection with its own session and run, start a run, answer the`,
    `current step with a random option, move on (next step, Retry or completion) and start again, as fast as they`,
    `can: ${meta.seconds} s measured after ${meta.warmup} s of warm-up, per point. The product is`,
    '`apps/server/dist/main.js` as `npm start` runs it (compiled, one Node process, LOG_LEVEL=warn); the baseline (`bench/answer/baseline-server.ts`)',
    'is bare `node:http` with the same driver and the same SQL (session lookup; read run and scenario definition;',
    'in one transaction the conditional claim, score update, next sequence number and decision insert), answering only',
    'what the trainee needs. Requests are start + answer + next together; latency is per request, measured by the client.',
    '',
    table(
      [
        'database',
        'trainees',
        'product req/s',
        'p50 ms',
        'p99 ms',
        'CPU ms/req',
        'body chars',
        'baseline req/s',
        'p50 ms',
        'p99 ms',
        'CPU ms/req',
        'body chars',
        'ratio',
        'product non-2xx',
        'product RSS MiB',
        'load avg',
      ],
      rows,
    ),
    '',
    '"CPU ms/req" is the server process\'s own CPU time (user + system, from /proc) per request in the window: unlike',
    'req/s it does not depend on what else the machine is running. "product RSS" is the server\'s resident memory',
    '(VmRSS) at the end of its window. "body chars" is the mean length of a response body: the product answers with',
    'the whole run as the player draws it (the step, the score, the skills and the timeline so far), the baseline with',
    'the few fields the load generator reads; the load generator parses both, on the same two CPUs. At',
    `${TARGET_LEVEL} trainees the two servers take turns ${TARGET_PAIRS} times (baseline, then product; once in a quick run), and the`,
    'ratio targets hold the median of the pairs\' ratios. "load avg" is the 1-minute load average at the end',
    "of the product's window. Each trainee has one request outstanding at a time (a closed loop), so by Little's law",
    'the mean latency is trainees / req/s: the p99 of this table is the length of the queue the load keeps full',
    "(the baseline's own is over 100 ms at 100 trainees), a measure of capacity rather than of what a trainee waits.",
    '',
    ...(pacedRows.length > 0
      ? [
          `What a trainee waits while ${TARGET_LEVEL} others play (\`bench/answer/paced.ts\`): each trainee sends its next request a`,
          'pause after the last answer arrived (drawn between half and one and a half times the mean), on its own',
          'keep-alive connection, so the load offered stays the same however fast the server answers. A mean pause of',
          '1 s is a step answered and left every two seconds, about ten times the pace of a brisk reader; 250 ms is',
          'forty times. The target is the p99 at 1 s.',
          '',
          table(
            [
              'database',
              'trainees',
              'mean pause',
              'product req/s',
              'p50 ms',
              'p99 ms',
              'max ms',
              'CPU ms/req',
              'baseline p50 ms',
              'baseline p99 ms',
              'connection errors',
            ],
            pacedRows,
          ),
          '',
        ]
      : []),
    ...(startups.length > 0
      ? [
          `Start to healthy (spawn to the first 200 from \`/api/health\`, polled every 20 ms) when the compiled server, serving the web build, restarts on`,
          `the database the load left, median of three: ${startups.map((startup) => `${startup.dialect} ${startup.readyMs} ms`).join(', ')}.`,
          '',
        ]
      : []),
    'Request mix per point (successful requests in the window). Connection errors and listen-queue overflows count',
    'the whole run, warm-up included; a connection error is a socket error or a request without an answer after 10 s',
    "(autocannon's timeout). Node takes one new connection per turn of its event loop: when 500 connections open at",
    'once and the first ones keep a server busy, a server whose turns are long takes the rest one every 100-200 ms',
    'and their first requests time out (docs/operations.md, "Connections under load").',
    '',
    table(
      [
        'database',
        'server',
        'trainees',
        'starts',
        'answers',
        'nexts',
        'runs finished',
        'connection errors',
        'listen overflows',
      ],
      mix,
    ),
    ...meta.profileSummaries.flatMap((summary) => ['', summary]),
  ].join('\n');
  return {
    id: 'answer',
    title: 'Answer path against its limit',
    date: new Date().toISOString(),
    quick: meta.quick,
    durationSeconds: (Date.now() - meta.started) / 1000,
    targets,
    markdown,
    data: { points, paced, startups, seconds: meta.seconds, warmupSeconds: meta.warmup },
  };
}

function errorKindsText(point: Point): string {
  const kinds = Object.entries(point.errorKinds);
  return kinds.length === 0
    ? String(point.connectionErrors)
    : `${point.connectionErrors} (${kinds.map(([kind, count]) => `${count}× ${kind}`).join(', ')})`;
}

function errorsText(point: Point): string {
  const entries = Object.entries(point.counters.errors);
  return entries.length === 0 ? '0' : entries.map(([status, count]) => `${count}× ${status}`).join(', ');
}
