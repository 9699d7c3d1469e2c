import type { SelectQueryBuilder } from 'kysely';
import type { DbOrTrx } from './database';
import type { Database } from './schema';

/**
 * The rows a query selects, collected first (a materialized common table expression) so that the caller sorts and
 * pages them alone: no planner walks a sort's index testing each row against the query's conditions instead,
 * which reads the whole table when the few matches lie far down the order (docs/operations.md, "Searching and
 * counting").
 */
export function collectedFirst<TB extends keyof Database, O extends object>(
  db: DbOrTrx,
  rows: SelectQueryBuilder<Database, TB, O>,
): SelectQueryBuilder<Database & { matches: O }, 'matches', O> {
  return db
    .with(
      (cte) => cte('matches').materialized(),
      () => rows,
    )
    .selectFrom('matches')
    .selectAll() as SelectQueryBuilder<Database & { matches: O }, 'matches', O>; // the columns the query selects
}
