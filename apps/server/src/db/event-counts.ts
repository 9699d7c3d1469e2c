import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from './schema';

/**
 * Counts of rows per quarter hour, kept by triggers in `event_counts` (migration 2026_11_26_0400): a count since a
 * day or week start sums at most a few hundred slots however many rows the range holds (docs/operations.md,
 * "Searching and counting").
 */
export const SLOT_MINUTES = 15;

const SLOT_MS = SLOT_MINUTES * 60_000;

/** The first quarter hour at or after `since` (an ISO timestamp), as an ISO timestamp. */
export function slotBoundaryAtOrAfter(since: string): string {
  const ms = Date.parse(since);
  return new Date(Math.ceil(ms / SLOT_MS) * SLOT_MS).toISOString();
}

/** The slot key (`YYYY-MM-DDTHH:MM`) of a quarter-hour boundary. */
const slotKey = (boundary: string) => boundary.slice(0, 16);

/** The rows counted under `name` from the quarter hour `boundary` on (a value of slotBoundaryAtOrAfter). */
const countedFrom = (eb: ExpressionBuilder<Database, never>, name: string, boundary: string) =>
  eb
    .selectFrom('event_counts')
    .select((inner) => inner.fn.coalesce(inner.fn.sum<number>('value'), inner.lit(0)).as('c'))
    .where('name', '=', name)
    .where('slot', '>=', slotKey(boundary));

/** What is counted per quarter hour (migration 2026_11_26_0400): runs by start, sign-in events of one kind. */
export type CountedRows = { table: 'runs' } | { table: 'login_events'; event: string };

/**
 * How many rows were written since `since`: the slots from the first quarter hour at or after it, plus the rows
 * before that quarter hour read from the table itself (none when `since` is on one, at most a quarter hour's).
 * Numeric on PostgreSQL (a sum of bigints): read it through Number().
 */
export function countedSince(eb: ExpressionBuilder<Database, never>, rows: CountedRows, since: string) {
  const boundary = slotBoundaryAtOrAfter(since);
  const name = rows.table === 'runs' ? 'runs' : `login_events:${rows.event}`;
  const at = sql.ref(rows.table === 'runs' ? 'started_at' : 'at');
  const ofKind = rows.table === 'runs' ? sql`` : sql` and event = ${rows.event}`;
  const before = sql`select count(*) from ${sql.table(rows.table)} where ${at} >= ${since} and ${at} < ${boundary}${ofKind}`;
  return sql<number | string>`(${countedFrom(eb, name, boundary)}) + (${before})`;
}
