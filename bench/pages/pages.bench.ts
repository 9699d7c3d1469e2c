import type { Page, Request } from 'playwright';
import {
  AUDIT_SORT_COLUMNS,
  LOGIN_ACTIVITY_SORT_COLUMNS,
  TRAINING_PROGRESS_SORT_COLUMNS,
  USER_SORT_COLUMNS,
} from '@tradecraft/shared';
import type { Dialect } from '../../apps/server/src/db/database';
import { createBenchDatabase } from '../lib/database';
import { log, PORTS, quantile, round, sleep } from '../lib/env';
import { signInApi } from '../lib/http';
import { table, type Section, type Target } from '../lib/report';
import { startServer } from '../lib/server';
import { ensureWebBuild, launchChromium } from '../lib/web';
import {
  PAGES_ADMIN,
  PAGES_ANALYSIS_SCENARIO,
  PAGES_COHORT_ID,
  PAGES_PATH_ID,
  PAGES_TRAINEE,
  seedScale,
  type ScaleCounts,
} from './seed-scale';

export interface PagesOptions {
  quick: boolean;
  dialects: Dialect[];
  scales?: number[];
  skipBuild?: boolean;
}

interface PageSpec {
  name: string;
  path: string;
  as: 'trainee' | 'admin';
}

const PAGES: PageSpec[] = [
  { name: 'Dashboard (trainee)', path: '/dashboard', as: 'trainee' },
  { name: 'Admin dashboard', path: '/admin', as: 'admin' },
  { name: 'Training Progress', path: '/admin/training-progress', as: 'admin' },
  { name: 'Manage Users', path: '/admin/users', as: 'admin' },
  { name: 'User Monitoring', path: '/admin/monitoring', as: 'admin' },
  { name: 'Audit Log', path: '/admin/audit-log', as: 'admin' },
  // Training programmes (docs/programmes.md); the trainee's dashboard above holds "Assigned to me".
  { name: 'Cohorts', path: '/admin/cohorts', as: 'admin' },
  { name: 'Learning paths (admin)', path: '/admin/paths', as: 'admin' },
  { name: 'Cohort page', path: `/admin/cohorts/${PAGES_COHORT_ID}`, as: 'admin' },
  { name: 'Learning path', path: `/paths/${PAGES_PATH_ID}`, as: 'trainee' },
  { name: 'Item analysis', path: `/admin/item-analysis?scenario=${PAGES_ANALYSIS_SCENARIO}`, as: 'admin' },
];

/**
 * Other views of the same list requests a person gets by sorting and searching (not loaded by the page itself).
 * Each list is searched twice: for a rare text (a few matches, anywhere in the history) and a common one (a match
 * in every few rows), since the fastest way to find the one is the slowest for the other.
 */
const COMMON_TEXT = 'seed.tradecraft';
const LIST_VARIANTS: Record<string, { sorts: readonly string[]; searches: Record<string, string>[] }> = {
  '/api/progress/all': {
    sorts: TRAINING_PROGRESS_SORT_COLUMNS,
    searches: [{ search: 'seed-00012' }, { search: COMMON_TEXT }],
  },
  '/api/logs/login-activity': {
    sorts: LOGIN_ACTIVITY_SORT_COLUMNS,
    searches: [{ search: 'seed-00012' }, { search: COMMON_TEXT }],
  },
  '/api/audit/logs': { sorts: AUDIT_SORT_COLUMNS, searches: [{ details: 'variant 12' }, { details: COMMON_TEXT }] },
  '/api/users': { sorts: USER_SORT_COLUMNS, searches: [{ search: 'seed-00012' }, { search: COMMON_TEXT }] },
  // The programmes lists (a page by name) and pickers (20 by name): seeded "Bench cohort 1", "Bench path 1" and
  // scenarios "... (variant 1)", each searched for one of them and for what every one holds.
  '/api/cohorts': { sorts: [], searches: [{ search: 'cohort 12' }, { search: 'Bench cohort' }] },
  '/api/paths': { sorts: [], searches: [{ search: 'path 7' }, { search: 'Bench path' }] },
  '/api/assignments/scenario-choices': { sorts: [], searches: [{ search: 'variant 12)' }, { search: 'variant' }] },
};

interface ApiTiming {
  /** Method and URL with ids replaced, the same at every scale. */
  key: string;
  url: string;
  /** Loaded by the page (false: a sort or search variant). */
  loadedByPage: boolean;
  page: string;
  status: number;
  bytes: number;
  medianMs: number;
  p90Ms: number;
}

interface PageLoad {
  page: string;
  requests: number;
  transferredBytes: number;
  apiRequests: number;
  apiBytes: number;
  apiCalls: string[];
  heading: string;
}

export interface ScaleResult {
  dialect: Dialect;
  scale: number;
  counts: ScaleCounts;
  seedSeconds: number;
  loads: PageLoad[];
  timings: ApiTiming[];
}

/** Distinct API requests (method and URL) a page made. */
const distinct = (load: PageLoad) => new Set(load.apiCalls).size;

const keyOf = (method: string, url: string) =>
  `${method} ${url.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id')}`;

export async function pagesBenchmark(options: PagesOptions): Promise<Section> {
  const started = Date.now();
  const scales = options.scales ?? (options.quick ? [0.1, 1] : [1, 10]);
  const dialects = options.quick ? options.dialects.filter((dialect) => dialect === 'sqlite') : options.dialects;
  const webDist = ensureWebBuild(options.skipBuild ?? false);
  const results: ScaleResult[] = [];
  for (const dialect of dialects) {
    for (const scale of scales) {
      const database = await createBenchDatabase(dialect, `pages${scale}`.replace('.', ''));
      try {
        const seedStarted = Date.now();
        const counts = await seedScale(database, scale);
        const seedSeconds = round((Date.now() - seedStarted) / 1000, 0);
        const server = await startServer({
          port: PORTS.pages,
          env: { ...database.env, WEB_DIST_DIR: webDist },
          timeoutMs: 180_000,
        });
        try {
          const measured = await measurePages(server.url, options.quick ? 9 : 15);
          results.push({ dialect, scale, counts, seedSeconds, ...measured });
          for (const load of measured.loads)
            log(
              `pages/${dialect} ×${scale} ${load.page}: ${load.apiRequests} API requests, ${round(load.apiBytes / 1024, 1)} kB`,
            );
        } finally {
          await server.stop();
        }
      } finally {
        await database.drop();
      }
    }
  }
  return pagesSection(results, { quick: options.quick, started, scales });
}

async function measurePages(baseUrl: string, samples: number): Promise<{ loads: PageLoad[]; timings: ApiTiming[] }> {
  const trainee = await signInApi(baseUrl, PAGES_TRAINEE);
  const admin = await signInApi(baseUrl, PAGES_ADMIN);
  const cookieOf = (as: PageSpec['as']) => (as === 'trainee' ? trainee.cookie : admin.cookie);
  const browser = await launchChromium();
  const loads: PageLoad[] = [];
  const toTime = new Map<string, { url: string; cookie: string; page: string; loadedByPage: boolean }>();
  try {
    for (const spec of PAGES) {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
      const [name, value] = cookieOf(spec.as).split('=') as [string, string];
      await context.addCookies([{ name, value, url: baseUrl }]);
      const page = await context.newPage();
      const load = await loadPage(page, spec);
      loads.push(load);
      for (const call of load.apiCalls) {
        const [method, url] = call.split(' ') as [string, string];
        if (method !== 'GET' || url.includes('/stream')) continue;
        const known = toTime.get(keyOf(method, url));
        // A request several pages make (the session, the bell) is timed once, under every page that made it.
        const pageName =
          known?.loadedByPage && known.page !== spec.name
            ? known.page.endsWith('pages')
              ? known.page
              : 'several pages'
            : spec.name;
        toTime.set(keyOf(method, url), { url, cookie: cookieOf(spec.as), page: pageName, loadedByPage: true });
        const path = url.split('?')[0]!;
        const variants = LIST_VARIANTS[path];
        if (!variants) continue;
        const query = new URLSearchParams(url.split('?')[1] ?? '');
        for (const sort of variants.sorts) {
          for (const dir of ['asc', 'desc']) {
            const variant = new URLSearchParams(query);
            variant.set('sort', sort);
            variant.set('dir', dir);
            variant.delete('page');
            const variantUrl = `${path}?${variant.toString()}`;
            if (!toTime.has(keyOf('GET', variantUrl)))
              toTime.set(keyOf('GET', variantUrl), {
                url: variantUrl,
                cookie: cookieOf(spec.as),
                page: spec.name,
                loadedByPage: false,
              });
          }
        }
        for (const search of variants.searches) {
          const searched = new URLSearchParams(query);
          for (const [key, term] of Object.entries(search)) searched.set(key, term);
          const searchUrl = `${path}?${searched.toString()}`;
          toTime.set(keyOf('GET', searchUrl), {
            url: searchUrl,
            cookie: cookieOf(spec.as),
            page: spec.name,
            loadedByPage: false,
          });
        }
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  // One pass over every request first: the first requests after the browser closed otherwise pay for the
  // server's caches and code warming up (the bell's request, timed first, showed several times its own cost).
  for (const request of toTime.values())
    await fetch(`${baseUrl}${request.url}`, { headers: { cookie: request.cookie } }).then((response) =>
      response.arrayBuffer(),
    );
  const timings: ApiTiming[] = [];
  for (const [key, request] of toTime)
    timings.push({ key, ...request, ...(await timeRequest(baseUrl, request.url, request.cookie, samples)) });
  return { loads, timings };
}

async function loadPage(page: Page, spec: PageSpec): Promise<PageLoad> {
  const started: Request[] = [];
  const finished: Request[] = [];
  let inFlight = 0;
  let lastChange = performance.now();
  const isApi = (request: Request) => new URL(request.url()).pathname.startsWith('/api/');
  const isStream = (request: Request) => request.url().includes('/stream');
  page.on('request', (request) => {
    started.push(request);
    if (isApi(request) && !isStream(request)) {
      inFlight += 1;
      lastChange = performance.now();
    }
  });
  const done = (request: Request) => {
    if (isApi(request) && !isStream(request)) {
      inFlight -= 1;
      lastChange = performance.now();
    }
  };
  page.on('requestfinished', (request) => {
    finished.push(request);
    done(request);
  });
  page.on('requestfailed', done);
  await page.goto(spec.path, { waitUntil: 'load' });
  const heading = await page.getByRole('heading', { level: 1 }).first().textContent({ timeout: 20_000 });
  // Settled: no API request in flight for 1 s (the notification stream stays open and is left out).
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline && (inFlight > 0 || performance.now() - lastChange < 1000)) await sleep(50);

  // Counted when started (the notification stream never finishes); bytes as transferred, of finished requests.
  const apiCalls = started.filter(isApi).map((request) => {
    const url = new URL(request.url());
    return `${request.method()} ${url.pathname}${url.search}`;
  });
  let transferredBytes = 0;
  let apiBytes = 0;
  for (const request of finished) {
    const sizes = await request.sizes();
    const bytes = sizes.responseBodySize + sizes.responseHeadersSize;
    transferredBytes += bytes + sizes.requestHeadersSize + sizes.requestBodySize;
    if (isApi(request)) apiBytes += bytes;
  }
  return {
    page: spec.name,
    requests: started.length,
    transferredBytes,
    apiRequests: apiCalls.length,
    apiBytes,
    apiCalls,
    heading: heading?.trim() ?? '',
  };
}

/** Time to the last byte of a GET from this machine (loopback): the server's time plus a fraction of a ms. */
async function timeRequest(
  baseUrl: string,
  url: string,
  cookie: string,
  samples: number,
): Promise<Omit<ApiTiming, 'key' | 'url' | 'page' | 'loadedByPage'>> {
  const times: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let index = 0; index < samples + 2; index += 1) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${url}`, { headers: { cookie } });
    const body = await response.arrayBuffer();
    if (index >= 2) times.push(performance.now() - started);
    status = response.status;
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  return { status, bytes, medianMs: round(quantile(times, 0.5), 2), p90Ms: round(quantile(times, 0.9), 2) };
}

/** The report section from measured results (exported so saved results can be rendered again). */
export function pagesSection(
  results: ScaleResult[],
  meta: { quick: boolean; started: number; scales: number[] },
): Section {
  const targets: Target[] = [];
  const lines: string[] = [];
  const [small, large] = [Math.min(...meta.scales), Math.max(...meta.scales)];
  lines.push(
    `Seeded with \`bench/pages/seed-scale.ts\` (users and sign-in events by \`apps/server/scripts/seed.ts\`; scenarios, runs,`,
    'decisions and audit entries by batched inserts); scale 1 = 10,000 users, 50 scenarios, 100,000 runs, 1,000,000 sign-in',
    'events, 100,000 audit entries. Each page is loaded once in Chromium (1280 px, the production build, signed in through',
    'the API) until no API request has been in flight for 1 s; every request it started is counted (the notification stream',
    'included), bytes as transferred (the static files compressed). Then each GET it made, and the same list sorted by every column both ways and',
    `searched, is replayed from this machine: after one pass over all of them, the median of ${meta.quick ? 9 : 15} runs after 2 warm-ups is`,
    'the server time.',
    'The trainee measured holds the same 20 runs at every scale, so only the data around it grows.',
    'Training programmes: 20 cohorts of 30 trainees and 10 learning paths of 5 scenarios per unit of scale, four assignments per',
    'cohort and one per ten trainees, certificates for one trainee in twenty; the measured cohort (with the trainee), path',
    'and item analysis (a built-in scenario, whose runs per scenario stay the same at every scale) are the same at every scale.',
    '',
  );
  for (const dialect of [...new Set(results.map((result) => result.dialect))]) {
    const low = results.find((result) => result.dialect === dialect && result.scale === small);
    const high = results.find((result) => result.dialect === dialect && result.scale === large);
    if (!low || !high) continue;
    lines.push(
      `### ${dialect}: ×${small} (${low.counts.scenarios} scenarios, ${low.counts.runs.toLocaleString('en')} runs, ${low.counts.events.toLocaleString('en')} events, seeded in ${low.seedSeconds} s) against ×${large} (${high.counts.scenarios} scenarios, ${high.counts.runs.toLocaleString('en')} runs, ${high.counts.events.toLocaleString('en')} events, seeded in ${high.seedSeconds} s)`,
      '',
    );
    const pageRows = low.loads.map((load) => {
      const other = high.loads.find((candidate) => candidate.page === load.page);
      return [
        load.page,
        load.heading,
        `${distinct(load)} → ${other ? distinct(other) : '?'}`,
        `${load.apiRequests} → ${other?.apiRequests ?? '?'}`,
        `${round(load.apiBytes / 1024, 1)} → ${round((other?.apiBytes ?? 0) / 1024, 1)}`,
        `${load.requests} → ${other?.requests ?? '?'}`,
        `${round(load.transferredBytes / 1024, 0)} → ${round((other?.transferredBytes ?? 0) / 1024, 0)}`,
      ];
    });
    lines.push(
      table(
        [
          'page',
          'heading seen',
          'API requests (distinct)',
          'API fetches',
          'API kB',
          'all requests',
          'all kB transferred',
        ],
        pageRows,
      ),
      '',
      'API fetches count a URL fetched twice twice (the notification bell fetches its list once, when its event stream',
      'first connects, so the two counts agree).',
      '',
    );
    const countsStable = low.loads.every((load) => {
      const other = high.loads.find((candidate) => candidate.page === load.page);
      return other !== undefined && distinct(other) === distinct(load);
    });
    targets.push({
      name: `pages, ${dialect}: distinct API requests per page at ${low.counts.scenarios} and ${high.counts.scenarios} scenarios`,
      target: 'the same',
      measured: low.loads
        .map((load) => {
          const other = high.loads.find((candidate) => candidate.page === load.page);
          return `${load.page} ${distinct(load)}→${other ? distinct(other) : '?'}`;
        })
        .join(', '),
      pass: countsStable,
    });
    const timingRows: (string | number)[][] = [];
    const misses: string[] = [];
    let within = 0;
    let compared = 0;
    for (const timing of low.timings) {
      const other = high.timings.find((candidate) => candidate.key === timing.key);
      if (!other) continue;
      const ratio = round(other.medianMs / Math.max(timing.medianMs, 0.01), 2);
      const ok = ratio < 2;
      compared += 1;
      if (ok) within += 1;
      else misses.push(`${timing.key.replace(/[?&]tz=[^&]*/, '')} (${timing.medianMs} → ${other.medianMs} ms)`);
      timingRows.push([
        timing.page,
        `${timing.key.replace(/[?&]tz=[^&]*/, '')}${timing.loadedByPage ? '' : ' (sort/search)'}`,
        `${timing.status}/${other.status}`,
        timing.medianMs,
        other.medianMs,
        ratio,
        `${round(timing.bytes / 1024, 1)} / ${round(other.bytes / 1024, 1)}`,
        ok ? 'PASS' : '**MISS**',
      ]);
    }
    lines.push(
      table(['page', 'request', 'status', `×${small} ms`, `×${large} ms`, 'ratio', 'kB', '< 2×'], timingRows),
      '',
    );
    const pageOnly = low.timings.filter((timing) => timing.loadedByPage);
    const pageMisses = pageOnly.filter((timing) => {
      const other = high.timings.find((candidate) => candidate.key === timing.key);
      return other && other.medianMs / Math.max(timing.medianMs, 0.01) >= 2;
    });
    targets.push({
      name: `pages, ${dialect}: server time of each request the pages make, ×${large} vs ×${small}`,
      target: '< 2×',
      measured: `${pageOnly.length - pageMisses.length} of ${pageOnly.length} within${pageMisses.length ? `; misses: ${pageMisses.map((timing) => timing.key.replace(/[?&]tz=[^&]*/, '')).join(', ')}` : ''}`,
      pass: pageMisses.length === 0,
    });
    targets.push({
      name: `pages, ${dialect}: server time of the same lists sorted by each column and searched, ×${large} vs ×${small}`,
      target: '< 2×',
      measured: `${within - (pageOnly.length - pageMisses.length)} of ${compared - pageOnly.length} within`,
      pass: misses.length === pageMisses.length,
    });
  }
  return {
    id: 'pages',
    title: 'Pages that must not grow with the data',
    date: new Date().toISOString(),
    quick: meta.quick,
    durationSeconds: (Date.now() - meta.started) / 1000,
    targets,
    markdown: lines.join('\n'),
    data: results,
  };
}
