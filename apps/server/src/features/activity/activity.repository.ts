import type { LoginActivitySortColumn, LoginEventKind, SortDirection } from '@tradecraft/shared';
import type { SelectQueryBuilder } from 'kysely';
import { nowIso } from '../../clock';
import { boundedCount, countCapFor } from '../../db/bounded-count';
import type { DbOrTrx } from '../../db/database';
import type { Database, LoginEventsTable } from '../../db/schema';
import { containsText } from '../../db/text-search';
import { keysetBatches } from '../../db/keyset-batches';

export interface LoginEventInput {
  email: string;
  role: string;
  event: LoginEventsTable['event'];
  ip: string | null;
}

/** Sign-in activity is written by the server itself; no client can post an entry. */
export async function recordLoginEvent(db: DbOrTrx, input: LoginEventInput): Promise<void> {
  await db
    .insertInto('login_events')
    .values({ email: input.email, role: input.role, event: input.event, ip: input.ip, at: nowIso() })
    .execute();
}

/** Failed sign-ins ever recorded for an email that has no account. */
export async function countUnknownEmailFailures(db: DbOrTrx, email: string): Promise<number> {
  const row = await db
    .selectFrom('login_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('email', '=', email)
    .where('event', '=', 'failed_login')
    .where('role', '=', 'unknown')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface LoginEventFilters {
  search?: string | undefined;
  event?: LoginEventKind | undefined;
  /** Inclusive lower bound on `at` (ISO). */
  fromIso?: string | undefined;
  /** Exclusive upper bound on `at` (ISO). */
  toIsoExclusive?: string | undefined;
}

export interface LoginEventRow {
  id: number;
  email: string;
  role: string;
  event: string;
  at: string;
}

function filteredEvents(db: DbOrTrx, filters: LoginEventFilters) {
  const search = filters.search?.trim();
  return db
    .selectFrom('login_events')
    .$if(Boolean(search), (qb) =>
      qb.where((eb) => containsText(db, 'login_events.email', eb.ref('login_events.id'), eb.ref('email'), search!)),
    )
    .$if(filters.event !== undefined, (qb) => qb.where('event', '=', filters.event!))
    .$if(filters.fromIso !== undefined, (qb) => qb.where('at', '>=', filters.fromIso!))
    .$if(filters.toIsoExclusive !== undefined, (qb) => qb.where('at', '<', filters.toIsoExclusive!));
}

const SORT_COLUMN = { email: 'email', role: 'role', event: 'event', timestamp: 'at' } as const;
/** A search matching at most this many events may be paged from its matching ids (see listLoginEvents). */
const FEW_MATCHES = 2000;
/**
 * Roughly how much dearer a row visited while walking the time index is than an entry of a plain scan
 * (measured on a million seeded events: sign-ins arrive in time order, so the walk reads the table nearly
 * in order).
 */
const WALK_COST = 2;

type PageOptions = { sort: LoginActivitySortColumn; dir: SortDirection; page: number; pageSize: number };

function ordered<QB extends SelectQueryBuilder<Database, 'login_events', LoginEventRow>>(
  query: QB,
  options: PageOptions,
) {
  const { sort, dir, page, pageSize } = options;
  const sorted = sort === 'timestamp' ? query : query.orderBy(SORT_COLUMN[sort], dir);
  return sorted
    .orderBy('at', dir)
    .orderBy('id', dir)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/**
 * One page of sign-in events. Every sort column has an index ending in the timestamp and the order always
 * ends in (at, id), so without a search a page is an index walk however many rows there are. An email
 * search ("contains") is served by a trigram index (db/text-search.ts): its matches are counted first, and when
 * they are few their ids are read and only those rows are sorted, rather than walking the whole time index
 * looking for rare matches.
 */
export async function listLoginEvents(
  db: DbOrTrx,
  filters: LoginEventFilters,
  options: PageOptions,
): Promise<{ rows: LoginEventRow[]; total: number; totalIsLowerBound?: boolean }> {
  const columns = ['id', 'email', 'role', 'event', 'at'] as const;
  const countQuery = filteredEvents(db, filters).select((eb) => eb.fn.countAll<number>().as('count'));
  if (!filters.search?.trim()) {
    // Without a search the total is counted only as far as the pager needs (bounded, "1,000+").
    const [rows, count] = await Promise.all([
      ordered(filteredEvents(db, filters).select(columns), options).execute(),
      boundedCount(db, filteredEvents(db, filters).select('id'), countCapFor(options.page, options.pageSize)),
    ]);
    return { rows, ...count };
  }
  const total = Number((await countQuery.executeTakeFirstOrThrow()).count);
  if (total === 0 || (options.page - 1) * options.pageSize >= total) return { rows: [], total };
  // Walking the time index visits about (rows before the page end) x (all rows / matches) rows; when that
  // costs more than one more scan, read the few matching ids with that scan instead.
  const pageEnd = options.page * options.pageSize;
  if (total > FEW_MATCHES || total >= WALK_COST * pageEnd) {
    return { rows: await ordered(filteredEvents(db, filters).select(columns), options).execute(), total };
  }
  const ids = (await filteredEvents(db, filters).select('id').execute()).map((row) => row.id);
  const rows = await ordered(db.selectFrom('login_events').select(columns).where('id', 'in', ids), options).execute();
  return { rows, total };
}

/**
 * The User Monitoring cards in one round trip; "today" starts at `dayStart`. The totals over all time come from
 * the counts kept by triggers (row_counts), so the cards cost the same however long the history is; today's
 * counts walk the (event, at) index over today only.
 */
export async function loginEventCounts(
  db: DbOrTrx,
  dayStart: string,
): Promise<{ total: number; failedLogins: number; loginsToday: number; logoutsToday: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('row_counts').select('value').where('name', '=', 'login_events').as('total'),
      eb.selectFrom('row_counts').select('value').where('name', '=', 'login_events:failed_login').as('failed'),
      eb
        .selectFrom('login_events')
        .select(eb.fn.countAll<number>().as('c'))
        .where('event', '=', 'login')
        .where('at', '>=', dayStart)
        .as('logins_today'),
      eb
        .selectFrom('login_events')
        .select(eb.fn.countAll<number>().as('c'))
        .where('event', '=', 'logout')
        .where('at', '>=', dayStart)
        .as('logouts_today'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total ?? 0),
    failedLogins: Number(row.failed ?? 0),
    loginsToday: Number(row.logins_today ?? 0),
    logoutsToday: Number(row.logouts_today ?? 0),
  };
}

/**
 * Every matching event, newest first, in batches: keyset paging on (at, id) keeps each batch an index walk
 * and memory flat, so exporting a million rows costs no more per row than exporting ten.
 */
export function loginEventBatches(
  db: DbOrTrx,
  filters: LoginEventFilters,
  batchSize = 5000,
): AsyncGenerator<LoginEventRow[]> {
  return keysetBatches<LoginEventRow>(
    (after, limit) =>
      filteredEvents(db, filters)
        .select(['id', 'email', 'role', 'event', 'at'])
        // A row-value comparison, which both databases answer with a range scan of the (at, id) index.
        .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(after!.at, after!.id))))
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),
    batchSize,
  );
}

// Password spraying: one address failing sign-ins on many accounts.

/** How many accounts failed to sign in from this address since the time given. */
export async function distinctFailedAccountsFrom(db: DbOrTrx, ip: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('login_events')
    .select((eb) => eb.fn.count<string | number>('email').distinct().as('n'))
    .where('ip', '=', ip)
    .where('event', '=', 'failed_login')
    .where('at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function sprayingAddresses(db: DbOrTrx, since: string, minAccounts: number) {
  return db
    .selectFrom('login_events')
    .select((eb) => [
      'ip',
      eb.fn.count<string | number>('email').distinct().as('accounts'),
      eb.fn.countAll<string | number>().as('failures'),
      eb.fn.max('at').as('last_at'),
    ])
    .where('event', '=', 'failed_login')
    .where('at', '>=', since)
    .where('ip', 'is not', null)
    .groupBy('ip')
    .having((eb) => eb.fn.count('email').distinct(), '>=', minAccounts)
    .orderBy('last_at', 'desc')
    .limit(100)
    .execute();
}
