import { PAGE_WINDOW } from '@tradecraft/shared';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { DbOrTrx } from './database';
import type { Database } from './schema';

/** Below this many rows a list always shows its exact total. */
export const COUNT_CAP_MIN = 1000;

/** How far a page's count goes: past the pager's next window, and never less than COUNT_CAP_MIN. */
export const countCapFor = (page: number, pageSize: number): number =>
  Math.max(COUNT_CAP_MIN, (page + PAGE_WINDOW) * pageSize);

export interface BoundedTotal {
  total: number;
  /** True when counting stopped at `total` ("1,000+"): there are more rows. */
  totalIsLowerBound: boolean;
}

/**
 * Counts the rows of a filtered query, stopping after `cap`: a page's total then costs at most `cap` rows
 * however large the table grows, where COUNT(*) over the whole table grew with it on every page.
 */
export async function boundedCount<TB extends keyof Database, O>(
  db: DbOrTrx,
  query: SelectQueryBuilder<Database, TB, O>,
  cap: number,
): Promise<BoundedTotal> {
  const capped = query
    .clearSelect()
    .select(sql<number>`1`.as('one'))
    .limit(cap + 1);
  const { rows } = await sql<{ count: number }>`select count(*) as count from (${capped}) as capped`.execute(db);
  return boundedTotal(Number(rows[0]?.count ?? 0), cap);
}

/** A count taken up to `cap + 1` rows, as a page's total. */
export const boundedTotal = (counted: number, cap: number): BoundedTotal =>
  counted > cap ? { total: cap, totalIsLowerBound: true } : { total: counted, totalIsLowerBound: false };
