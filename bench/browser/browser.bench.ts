import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { createBenchDatabase } from '../lib/database';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, log, PORTS, round } from '../lib/env';
import { signInApi } from '../lib/http';
import { table, type Section, type Target } from '../lib/report';
import { BENCH_ADMIN, startServer } from '../lib/server';
import { ensureWebBuild, launchChromium } from '../lib/web';

export interface BrowserOptions {
  quick: boolean;
  skipBuild?: boolean;
}

const TRAINEE = {
  email: 'browser-trainee@bench.test',
  password: 'Browser!Trainee1',
  firstName: 'Bea',
  lastName: 'Browser',
};

interface RouteSize {
  route: string;
  as: 'anonymous' | 'trainee' | 'admin';
  jsFiles: number;
  jsBytes: number;
  jsGzip: number;
  cssFiles: number;
  cssGzip: number;
  largest: string;
}

interface LighthouseResult {
  route: string;
  /** Null when Lighthouse could not score the page (`error` says why). */
  performance: number | null;
  error?: string;
  accessibility: number;
  metrics: Record<string, string>;
  /** Audits that lost points, with their titles. */
  failing: string[];
}

const SIGN_IN_TARGET_BYTES = 200 * 1024;

export async function browserBenchmark(options: BrowserOptions): Promise<Section> {
  const started = Date.now();
  const webDist = ensureWebBuild(options.skipBuild ?? false);
  const database = await createBenchDatabase('sqlite', 'browser');
  const server = await startServer({ port: PORTS.browser, env: { ...database.env, WEB_DIST_DIR: webDist } });
  let sizes: RouteSize[] = [];
  const lighthouseResults: LighthouseResult[] = [];
  try {
    const admin = await signInApi(server.url, BENCH_ADMIN);
    const trainee = await seedTrainee(server.url, admin.cookie);
    const scenarios = (await (
      await fetch(`${server.url}/api/sim/list`, { headers: { cookie: trainee.cookie } })
    ).json()) as { scenarios: { id: string }[] };
    const player = `/simulation/${scenarios.scenarios[0]!.id}`;
    const routes: { route: string; as: RouteSize['as'] }[] = [
      { route: '/login', as: 'anonymous' },
      { route: '/register', as: 'anonymous' },
      { route: '/dashboard', as: 'trainee' },
      { route: '/scenarios', as: 'trainee' },
      { route: player, as: 'trainee' },
      { route: '/skills', as: 'trainee' },
      { route: '/profile', as: 'trainee' },
      { route: '/settings', as: 'trainee' },
      { route: '/help', as: 'trainee' },
      { route: '/contact', as: 'trainee' },
      { route: '/admin', as: 'admin' },
      { route: '/admin/users', as: 'admin' },
      { route: '/admin/pending-users', as: 'admin' },
      { route: '/admin/monitoring', as: 'admin' },
      { route: '/admin/audit-log', as: 'admin' },
      { route: '/admin/training-progress', as: 'admin' },
      { route: '/admin/scenario-config', as: 'admin' },
      { route: '/admin/difficulty', as: 'admin' },
      { route: '/upload', as: 'admin' },
    ];
    const cookieOf = (as: RouteSize['as']) =>
      as === 'trainee' ? trainee.cookie : as === 'admin' ? admin.cookie : null;
    sizes = await measureRouteSizes(server.url, routes, cookieOf);
    for (const size of sizes)
      log(
        `browser: ${size.route}: ${round(size.jsGzip / 1024, 1)} kB gzip JS, ${round(size.cssGzip / 1024, 1)} kB gzip CSS`,
      );

    const audited: { route: string; as: RouteSize['as'] }[] = [
      { route: '/login', as: 'anonymous' },
      { route: '/dashboard', as: 'trainee' },
      { route: '/scenarios', as: 'trainee' },
      { route: player, as: 'trainee' },
    ];
    for (const { route, as } of audited) {
      let result = await runLighthouse(`${server.url}${route}`, cookieOf(as));
      // A run Lighthouse could not score (a trace it could not read) is run once more, and the reason kept.
      if (result.performance === null) {
        log(`lighthouse ${route}: no performance score (${result.error}); running it once more`);
        result = await runLighthouse(`${server.url}${route}`, cookieOf(as));
      }
      lighthouseResults.push({ ...result, route: route === player ? `${route} (player)` : route });
      log(`lighthouse ${route}: performance ${result.performance}, accessibility ${result.accessibility}`);
    }
  } finally {
    await server.stop();
    await database.drop();
  }
  return browserSection(sizes, lighthouseResults, { quick: options.quick, started });
}

/** Registers a trainee through the API and has the admin approve it, as a person would. */
async function seedTrainee(baseUrl: string, adminCookie: string): Promise<{ cookie: string }> {
  const headers = { 'content-type': 'application/json', origin: baseUrl };
  const registered = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...TRAINEE, designation: 'SOC Analyst' }),
  });
  if (registered.status !== 201)
    throw new Error(`registration failed: ${registered.status} ${await registered.text()}`);
  const pending = (await (
    await fetch(`${baseUrl}/api/users/pending`, { headers: { cookie: adminCookie } })
  ).json()) as { users: { id: string; email: string }[] };
  const id = pending.users.find((user) => user.email === TRAINEE.email)!.id;
  const approved = await fetch(`${baseUrl}/api/users/${id}/approve`, {
    method: 'POST',
    headers: { ...headers, cookie: adminCookie },
    body: JSON.stringify({ role: 'student' }),
  });
  if (!approved.ok) throw new Error(`approval failed: ${approved.status}`);
  return signInApi(baseUrl, TRAINEE);
}

/** Each route loaded in a fresh context (nothing cached): every script and style sheet it fetched, gzipped (-9). */
async function measureRouteSizes(
  baseUrl: string,
  routes: { route: string; as: RouteSize['as'] }[],
  cookieOf: (as: RouteSize['as']) => string | null,
): Promise<RouteSize[]> {
  const browser = await launchChromium();
  const results: RouteSize[] = [];
  try {
    for (const { route, as } of routes) {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
      const cookie = cookieOf(as);
      if (cookie) {
        const [name, value] = cookie.split('=') as [string, string];
        await context.addCookies([{ name, value, url: baseUrl }]);
      }
      const page = await context.newPage();
      const bodies: Promise<{ type: string; url: string; bytes: Buffer }>[] = [];
      page.on('response', (response) => {
        const type = response.request().resourceType();
        if (type === 'script' || type === 'stylesheet')
          bodies.push(response.body().then((bytes) => ({ type, url: response.url(), bytes })));
      });
      await page.goto(route, { waitUntil: 'networkidle' }).catch(() => page.waitForLoadState('load'));
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(300);
      const files = await Promise.all(bodies);
      const js = files.filter((file) => file.type === 'script');
      const css = files.filter((file) => file.type === 'stylesheet');
      const gz = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;
      const largest = [...js].sort((a, b) => b.bytes.length - a.bytes.length)[0];
      results.push({
        route,
        as,
        jsFiles: js.length,
        jsBytes: js.reduce((sum, file) => sum + file.bytes.length, 0),
        jsGzip: js.reduce((sum, file) => sum + gz(file.bytes), 0),
        cssFiles: css.length,
        cssGzip: css.reduce((sum, file) => sum + gz(file.bytes), 0),
        largest: largest
          ? `${new URL(largest.url).pathname.split('/').pop()} (${round(gz(largest.bytes) / 1024, 1)} kB gz)`
          : '-',
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

async function runLighthouse(url: string, cookie: string | null): Promise<Omit<LighthouseResult, 'route'>> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      },
      desktopConfig,
    );
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const { lhr } = result;
    const metric = (id: string) => lhr.audits[id]?.displayValue ?? '-';
    const failing = Object.values(lhr.audits)
      .filter(
        (audit) =>
          audit.score !== null &&
          audit.score < 0.9 &&
          ['numeric', 'binary', 'metricSavings'].includes(audit.scoreDisplayMode),
      )
      .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    return {
      performance: lhr.categories.performance?.score ?? null,
      ...(lhr.categories.performance?.score == null
        ? {
            error:
              lhr.runtimeError?.message ??
              Object.values(lhr.audits).find((audit) => audit.errorMessage)?.errorMessage ??
              'no reason given',
          }
        : {}),
      accessibility: lhr.categories.accessibility?.score ?? 0,
      metrics: {
        FCP: metric('first-contentful-paint'),
        LCP: metric('largest-contentful-paint'),
        TBT: metric('total-blocking-time'),
        CLS: metric('cumulative-layout-shift'),
        SI: metric('speed-index'),
      },
      failing,
    };
  } finally {
    chrome.kill();
  }
}

function browserSection(
  sizes: RouteSize[],
  audits: LighthouseResult[],
  meta: { quick: boolean; started: number },
): Section {
  const login = sizes.find((size) => size.route === '/login');
  const targets: Target[] = [
    {
      name: 'browser: gzip JavaScript the sign-in route loads',
      target: '< 200 kB',
      measured: login ? `${round(login.jsGzip / 1024, 1)} kB` : 'not measured',
      pass: login !== undefined && login.jsGzip < SIGN_IN_TARGET_BYTES,
    },
  ];
  for (const audit of audits) {
    targets.push(
      {
        name: `lighthouse ${audit.route}: performance (desktop)`,
        target: '≥ 0.95',
        measured: audit.performance === null ? `no score: ${audit.error}` : String(audit.performance),
        pass: audit.performance !== null && audit.performance >= 0.95,
      },
      {
        name: `lighthouse ${audit.route}: accessibility`,
        target: '1.0',
        measured: String(audit.accessibility),
        pass: audit.accessibility >= 1,
      },
    );
  }
  const markdown = [
    'Bytes per route: the production build (`vite build`) served by the real server; each route loaded in a fresh',
    'Chromium context (nothing cached) signed in as whoever may see it; every script and style sheet it fetched,',
    'compressed here with gzip -9 (the server sends the brotli or gzip copy the build wrote beside each, whichever the',
    'browser accepts, so the bytes on the wire are at most these).',
    '',
    table(
      ['route', 'as', 'JS files', 'JS kB', 'JS kB gzip', 'CSS files', 'CSS kB gzip', 'largest script'],
      sizes.map((size) => [
        size.route,
        size.as,
        size.jsFiles,
        round(size.jsBytes / 1024, 1),
        round(size.jsGzip / 1024, 1),
        size.cssFiles,
        round(size.cssGzip / 1024, 1),
        size.largest,
      ]),
    ),
    '',
    'Lighthouse 12 (desktop preset, the system Chromium headless), performance and accessibility:',
    '',
    table(
      ['route', 'performance', 'accessibility', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'audits below 0.9'],
      audits.map((audit) => [
        audit.route,
        audit.performance ?? '-',
        audit.accessibility,
        audit.metrics.FCP!,
        audit.metrics.LCP!,
        audit.metrics.TBT!,
        audit.metrics.CLS!,
        audit.metrics.SI!,
        audit.failing.join(', ') || '-',
      ]),
    ),
  ].join('\n');
  return {
    id: 'browser',
    title: "The browser's share",
    date: new Date().toISOString(),
    quick: meta.quick,
    durationSeconds: (Date.now() - meta.started) / 1000,
    targets,
    markdown,
    data: { sizes, audits },
  };
}
