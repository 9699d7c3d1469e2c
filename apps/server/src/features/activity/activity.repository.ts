import type { LoginActivitySortColumn, LoginEventKind, SortDirection } from '@tradecraft/shared';
import { sql, type SelectQueryBuilder } from 'kysely';
import { nowIso } from '../../clock';
import { boundedCount, countCapFor } from '../../db/bounded-count';
import type { DbOrTrx } from '../../db/database';
import type { Database, LoginEventsTable } from '../../db/schema';
import { containsIgnoringCase } from '../../db/contains';
import { countedSince } from '../../db/event-counts';
import { containsOnIndex, matchesThroughSearchIndex } from '../../db/text-search';
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

/** The events matching every filter but the search, for the given emails when the search found them. */
function filteredEvents(db: DbOrTrx, filters: LoginEventFilters, emails?: string[]) {
  return db
    .selectFrom('login_events')
    .$if(emails !== undefined, (qb) => qb.where('email', 'in', emails!))
    .$if(filters.event !== undefined, (qb) => qb.where('event', '=', filters.event!))
    .$if(filters.fromIso !== undefined, (qb) => qb.where('at', '>=', filters.fromIso!))
    .$if(filters.toIsoExclusive !== undefined, (qb) => qb.where('at', '<', filters.toIsoExclusive!));
}

const SORT_COLUMN = { email: 'email', role: 'role', event: 'event', timestamp: 'at' } as const;
/**
 * A search matching at most this many distinct emails reads their events through the (email, event) index;
 * one matching more walks the sort's index and tests each event's email (its matches are then common).
 */
const FEW_EMAILS = 200;

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

/** Up to `limit` distinct sign-in emails containing the text, through the emails' trigram index. */
async function matchingEmails(db: DbOrTrx, text: string, limit: number): Promise<string[]> {
  const holds = containsIgnoringCase(sql.ref('login_emails.email'), text);
  const indexed = await matchesThroughSearchIndex(db, {
    table: 'login_emails',
    key: sql.ref('login_emails.rowid'),
    value: sql.ref<string>('login_emails.email'),
    searches: [{ column: 'login_emails.email', text }],
    conditions: [holds],
    limit,
  });
  if (indexed) return indexed;
  const onIndex = await containsOnIndex(db, 'login_emails.email', sql.ref('login_emails.email'), text);
  const rows = await db.selectFrom('login_emails').select('email').where(onIndex).limit(limit).execute();
  return rows.map((row) => row.email);
}

/**
 * The events matching the filters, or null when a search matches no email. An email search ("contains") first
 * finds the matching emails among the distinct ones (`login_emails`, trigram-indexed); when they are few, only
 * their events are read, through the (email, event) index, so the search costs what its matches cost, not what
 * the history does. A search matching many emails matches common text: the events' own emails are tested.
 */
async function searchedEvents(db: DbOrTrx, filters: LoginEventFilters) {
  const search = filters.search?.trim();
  if (!search) return filteredEvents(db, filters);
  const found = await matchingEmails(db, search, FEW_EMAILS + 1);
  if (found.length === 0) return null;
  if (found.length <= FEW_EMAILS) return filteredEvents(db, filters, found);
  return filteredEvents(db, filters).where((eb) => containsIgnoringCase(eb.ref('email'), search));
}

/**
 * One page of sign-in events. Every sort column has an index ending in the timestamp and the order always
 * ends in (at, id), so a page is an index walk however many rows there are (a search reads its emails' events,
 * see searchedEvents), and its total is counted only as far as the pager needs ("1,000+").
 */
export async function listLoginEvents(
  db: DbOrTrx,
  filters: LoginEventFilters,
  options: PageOptions,
): Promise<{ rows: LoginEventRow[]; total: number; totalIsLowerBound?: boolean }> {
  const events = await searchedEvents(db, filters);
  if (events === null) return { rows: [], total: 0, totalIsLowerBound: false };
  const [rows, count] = await Promise.all([
    ordered(events.select(['id', 'email', 'role', 'event', 'at']), options).execute(),
    boundedCount(db, events.select('id'), countCapFor(options.page, options.pageSize)),
  ]);
  return { rows, ...count };
}

/**
 * The User Monitoring cards in one round trip; "today" starts at `dayStart`. The totals over all time come from
 * the counts kept by triggers (row_counts), and today's from the quarter-hour counts (event-counts.ts), so the cards
 * cost the same however long or busy the history is.
 */
export async function loginEventCounts(
  db: DbOrTrx,
  dayStart: string,
): Promise<{ total: number; failedLogins: number; loginsToday: number; logoutsToday: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('row_counts').select('value').where('name', '=', 'login_events').as('total'),
      eb.selectFrom('row_counts').select('value').where('name', '=', 'login_events:failed_login').as('failed'),
      countedSince(eb, { table: 'login_events', event: 'login' }, dayStart).as('logins_today'),
      countedSince(eb, { table: 'login_events', event: 'logout' }, dayStart).as('logouts_today'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total ?? 0),
    failedLogins: Number(row.failed ?? 0),
    loginsToday: Number(row.logins_today),
    logoutsToday: Number(row.logouts_today),
  };
}

/**
 * Every matching event, newest first, in batches: keyset paging on (at, id) keeps each batch an index walk
 * and memory flat, so exporting a million rows costs no more per row than exporting ten.
 */
export async function* loginEventBatches(
  db: DbOrTrx,
  filters: LoginEventFilters,
  batchSize = 5000,
): AsyncGenerator<LoginEventRow[]> {
  const events = await searchedEvents(db, filters);
  if (events === null) return;
  yield* keysetBatches<LoginEventRow>(
    (after, limit) =>
      events
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
