import type { ExpressionBuilder } from 'kysely';
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

/**
 * The rows counted under `name` from the quarter hour `boundary` on (a value of slotBoundaryAtOrAfter). A start
 * between two quarter hours adds the rows before `boundary` from the table itself (at most a quarter hour's).
 */
export const countedFrom = (eb: ExpressionBuilder<Database, never>, name: string, boundary: string) =>
  eb
    .selectFrom('event_counts')
    .select((inner) => inner.fn.coalesce(inner.fn.sum<number>('value'), inner.lit(0)).as('c'))
    .where('name', '=', name)
    .where('slot', '>=', slotKey(boundary));
