import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createSession } from '../../src/plugins/sessions.repository';
import type { TestApp } from '../helper';
import { ORIGIN } from '../helper';

/**
 * The bad-input campaign: generated bodies, query strings, path parameters, headers and cookies sent to every
 * API route as anonymous, trainee and admin. Every answer must be a correct 2xx or a 4xx with a readable
 * `error`; never a 5xx, and never a changed record after a 4xx.
 */
export interface CampaignOptions {
  numRuns: number;
  seed: number;
  /** Counts answers by status as they come (kept when a case fails; `npm run bench` reports them). */
  byStatus?: Record<string, number>;
}

export interface CampaignReport {
  cases: number;
  byStatus: Record<string, number>;
  routes: number;
}

type Caller = 'anonymous' | 'student' | 'admin';

// Tables whose 4xx-time changes are the point (failed sign-ins are counted, logged and lock the account; limits
// count attempts).
const VOLATILE_TABLES = new Set([
  'sessions',
  'rate_limits',
  'login_events',
  'kysely_migration',
  'kysely_migration_lock',
]);
const VOLATILE_COLUMNS = new Set(['failed_attempts', 'locked_until', 'disabled', 'last_seen_at']);
const TABLES = [
  'users',
  'files',
  'settings',
  'audit_log',
  'notifications',
  'scenarios',
  'runs',
  'run_decisions',
  'second_factors',
  'recovery_codes',
];

async function snapshot(t: TestApp): Promise<string> {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    if (VOLATILE_TABLES.has(table)) continue;
    const rows = (await sql`select * from ${sql.table(table)}`.execute(t.db)).rows as Record<string, unknown>[];
    const stable = rows
      .map((row) =>
        JSON.stringify(
          Object.entries(row)
            .filter(([column]) => !VOLATILE_COLUMNS.has(column))
            .map(([column, value]) => [
              column,
              Buffer.isBuffer(value) ? createHash('sha256').update(value).digest('hex') : value,
            ]),
        ),
      )
      .sort();
    hash.update(`${table}:${stable.join('\n')}\n`);
  }
  return hash.digest('hex');
}

const hostileStrings = fc.constantFrom(
  '',
  ' ',
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '../../etc/passwd',
  '..%2f..%2f',
  '%00',
  '\u0000',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '=cmd|"/c calc"!A1',
  'a'.repeat(300),
  '😀'.repeat(20),
  '\u202Eevil',
  'T1566.001',
  'student',
  'admin',
  'pending',
  'asc',
  'desc',
  '2026-01-01',
  '2026-13-45',
);

const text = fc.oneof(hostileStrings, fc.string({ maxLength: 40 }), fc.integer().map(String));

const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      email: fc.oneof(text, fc.integer(), fc.constant(null)),
      password: fc.oneof(text, fc.integer(), fc.array(text)),
      firstName: fc.oneof(text, fc.integer()),
      lastName: text,
      role: fc.oneof(text, fc.integer()),
      disabled: fc.oneof(fc.boolean(), text, fc.integer()),
      difficulty: fc.oneof(fc.integer({ min: -10, max: 10 }), text, fc.double()),
      scenarioId: text,
      stepId: text,
      optionIndex: fc.oneof(fc.integer({ min: -5, max: 10 }), text, fc.double()),
      timeMs: fc.oneof(fc.integer(), fc.double(), text),
      currentPassword: text,
      newPassword: text,
      confirmPassword: text,
    },
    { requiredKeys: [] },
  ),
  // Deeply nested JSON: must be refused or ignored, never crash.
  fc.integer({ min: 50, max: 2000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
);

const rawBody = fc.oneof(
  jsonish.map((value) => ({ payload: JSON.stringify(value) ?? 'null', contentType: 'application/json' })),
  fc.string({ maxLength: 200 }).map((payload) => ({ payload, contentType: 'application/json' })),
  fc.string({ maxLength: 200 }).map((payload) => ({ payload, contentType: 'text/plain' })),
  fc.record({ name: text, content: fc.string({ maxLength: 400 }) }).map(({ name, content }) => {
    const boundary = 'campaignboundary';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name.replace(/["\r\n]/g, '')}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`;
    return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
  }),
  fc.constant({ payload: '', contentType: 'multipart/form-data' }),
  fc.constant(undefined),
);

// What a header may carry (light-my-request, like Node's HTTP parser, refuses control characters in headers).
const headerText = text.filter((value) => /^[\x20-\x7e]*$/.test(value));

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'x-forwarded-for',
    'accept',
    'accept-language',
    'if-none-match',
    'range',
    'x-http-method-override',
    'sec-fetch-site',
    'user-agent',
    'x-requested-with',
  ),
  fc.oneof(
    headerText,
    fc.constantFrom('cross-site', 'DELETE', 'bytes=0-0,-1', '*/*', '127.0.0.1, 10.0.0.1', 'text/csv'),
  ),
  { maxKeys: 3 },
);

// The type a client claims, which may not match the body it sends.
const contentTypeClaim = fc.option(
  fc.constantFrom(
    'application/json; charset=utf-16',
    'APPLICATION/JSON',
    'application/json;charset=latin1',
    'application/json, text/html',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'application/x-www-form-urlencoded',
    'text/plain; charset=utf-8',
  ),
  { nil: undefined },
);

const hostileCookie = fc.oneof(
  text,
  fc.constant('tc_session=' + 'A'.repeat(43)),
  fc.constant('tc_session=%ZZ%00'),
  fc.constant('tc_session="quoted"; tc_session=second'),
  fc.constant('tc_session=; tc_session'),
  fc.constant('a=' + 'b'.repeat(4000)),
);

const caseArbitrary = (routeCount: number, knownIds: readonly string[]) =>
  fc.record({
    route: fc.nat({ max: routeCount - 1 }),
    caller: fc.constantFrom<Caller>('anonymous', 'student', 'admin'),
    // Junk, or the id (or email) of a record that exists: someone else's run, an admin, a pending user.
    param: knownIds.length > 0 ? fc.oneof(text, fc.constantFrom(...knownIds)) : text,
    query: fc.dictionary(
      fc.constantFrom(
        'page',
        'pageSize',
        'sort',
        'dir',
        'search',
        'q',
        'start_date',
        'end_date',
        'role',
        'event',
        'status',
        'userId',
        'all',
        'email',
      ),
      text,
      { maxKeys: 4 },
    ),
    body: rawBody,
    cookie: fc.option(hostileCookie, { nil: undefined }),
    origin: fc.constantFrom(ORIGIN, ORIGIN, ORIGIN, 'https://evil.example', 'null'),
    headers: extraHeaders,
    contentType: contentTypeClaim,
    // Most cases use the route's plain path; the rest write it so that a prefix test and the router could disagree.
    pathVariant: fc.constantFrom(
      'plain',
      'plain',
      'plain',
      'plain',
      'escapedPrefix',
      'escapedSegment',
      'mixedCaseEscapes',
      'doubledSlash',
      'escapedSlash',
    ),
  });

/** The route's path written another way: every such variant must be refused before it reaches a route. */
function writeVariant(path: string, variant: string): string {
  switch (variant) {
    case 'escapedPrefix':
      return path.replace(/^\/api/, '/%61pi');
    case 'escapedSegment':
      return path.replace(/^\/api\/([a-z])/, (_match, letter: string) => `/api/%${letter.charCodeAt(0).toString(16)}`);
    case 'mixedCaseEscapes':
      // The first two letters of the route's own segment escaped, one in lower-case hex and one in upper-case.
      return path.replace(
        /^\/api\/([a-z])([a-z])/,
        (_match, first: string, second: string) =>
          `/api/%${first.charCodeAt(0).toString(16)}%${second.charCodeAt(0).toString(16).toUpperCase()}`,
      );
    case 'doubledSlash':
      return path.replace(/^\/api\//, '/api//');
    case 'escapedSlash':
      return path.replace(/^\/api\//, '/api%2F');
    default:
      return path;
  }
}

export async function runBadInputCampaign(
  t: TestApp,
  { numRuns, seed, byStatus = {} }: CampaignOptions,
): Promise<CampaignReport> {
  const student = await t.createUser({ role: 'student' });
  const admin = await t.createUser({ role: 'admin' });
  const pending = await t.createUser({ role: 'pending' });
  const client = { ip: '127.0.0.1', userAgent: 'campaign' };
  // Records that exist when the campaign starts (the caller may have added scenarios and runs).
  const scenarioIds = (await t.db.selectFrom('scenarios').select('id').execute()).map((row) => row.id);
  const runIds = (await t.db.selectFrom('runs').select('id').limit(20).execute()).map((row) => row.id);
  const knownIds = [student.id, admin.id, pending.id, student.email, admin.email, ...scenarioIds, ...runIds];
  // Streams never end under inject(); they are exercised by their own tests. The API description is not in the
  // route table (its plugin declares its own routes) but is for admins only, so it is aimed at too.
  const routes = [
    ...t.app.apiRoutes.filter((route) => !route.url.endsWith('/stream')),
    ...['/api/docs', '/api/docs/json', '/api/docs/yaml'].map((url) => ({ method: 'GET', url })),
  ];

  await fc.assert(
    fc.asyncProperty(caseArbitrary(routes.length, knownIds), async (generated) => {
      const route = routes[generated.route]!;
      const url =
        writeVariant(
          route.url.replace(/:[a-zA-Z]+/g, () => encodeURIComponent(generated.param) || 'x'),
          generated.pathVariant,
        ) + (Object.keys(generated.query).length ? `?${new URLSearchParams(generated.query).toString()}` : '');
      const userId = generated.caller === 'admin' ? admin.id : generated.caller === 'student' ? student.id : null;
      const token = userId ? (await createSession(t.db, userId, client)).token : undefined;
      const headers: Record<string, string> = { ...generated.headers, origin: generated.origin };
      const cookies = [token ? `tc_session=${token}` : '', generated.cookie ?? ''].filter(Boolean);
      if (cookies.length) headers.cookie = cookies.join('; ');
      const sendsBody = route.method !== 'GET' && route.method !== 'DELETE' && generated.body !== undefined;
      if (sendsBody) headers['content-type'] = generated.contentType ?? generated.body!.contentType;

      const before = await snapshot(t);
      const response = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers,
        ...(sendsBody ? { payload: generated.body!.payload } : {}),
      });
      byStatus[response.statusCode] = (byStatus[response.statusCode] ?? 0) + 1;
      const where = `${route.method} ${url} as ${generated.caller}`;
      if (response.statusCode >= 500)
        throw new Error(`${where} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      if (generated.pathVariant !== 'plain' && response.statusCode !== 400) {
        throw new Error(
          `${where} (a ${generated.pathVariant} path) answered ${response.statusCode}; it must be refused with 400`,
        );
      }
      if (response.statusCode >= 400) {
        let error: unknown;
        try {
          error = (response.json() as { error?: unknown }).error;
        } catch {
          error = undefined;
        }
        if (typeof error !== 'string' || error.trim() === '') {
          throw new Error(
            `${where} answered ${response.statusCode} without a readable error: ${response.body.slice(0, 200)}`,
          );
        }
        if ((await snapshot(t)) !== before)
          throw new Error(`${where} answered ${response.statusCode} but changed stored records`);
      }
    }),
    { numRuns, seed, endOnFailure: true },
  );
  return { cases: numRuns, byStatus, routes: routes.length };
}
