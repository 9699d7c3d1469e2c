import type { AuditSortColumn, SortDirection } from '@tradecraft/shared';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import { boundedCount, countCapFor, type BoundedTotal } from '../../db/bounded-count';
import { containsText } from '../../db/text-search';
import { keysetBatches } from '../../db/keyset-batches';

export interface AuditFilters {
  actor?: string | undefined;
  action?: string | undefined;
  details?: string | undefined;
  screen?: string | undefined;
  /** Inclusive lower bound on `at` (ISO). */
  fromIso?: string | undefined;
  /** Exclusive upper bound on `at` (ISO). */
  toIsoExclusive?: string | undefined;
}

export interface AuditRow {
  id: number;
  actor: string | null;
  action: string;
  details: string | null;
  screen: string | null;
  at: string;
}

export async function insertAuditEntry(db: DbOrTrx, row: Omit<AuditRow, 'id'>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

const TEXT_FILTERS = ['actor', 'action', 'details', 'screen'] as const;

function filteredAudit(db: DbOrTrx, filters: AuditFilters) {
  let query = db.selectFrom('audit_log');
  for (const column of TEXT_FILTERS) {
    const text = filters[column]?.trim();
    if (text)
      query = query.where((eb) =>
        containsText(db, `audit_log.${column}`, eb.ref('audit_log.id'), eb.ref(column), text),
      );
  }
  return query
    .$if(filters.fromIso !== undefined, (qb) => qb.where('at', '>=', filters.fromIso!))
    .$if(filters.toIsoExclusive !== undefined, (qb) => qb.where('at', '<', filters.toIsoExclusive!));
}

/** One page of the audit log. Text columns sort case-insensitively, an empty value as ''. */
export async function listAuditEntries(
  db: DbOrTrx,
  filters: AuditFilters,
  options: { sort: AuditSortColumn; dir: SortDirection; page: number; pageSize: number },
): Promise<{ rows: AuditRow[] } & BoundedTotal> {
  const { sort, dir, page, pageSize } = options;
  let rowsQuery = filteredAudit(db, filters).select(['id', 'actor', 'action', 'details', 'screen', 'at']);
  if (sort !== 'timestamp') rowsQuery = rowsQuery.orderBy(sql`lower(coalesce(${sql.ref(sort)}, ''))`, dir);
  const [rows, count] = await Promise.all([
    rowsQuery
      .orderBy('at', dir)
      .orderBy('id', dir)
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    boundedCount(db, filteredAudit(db, filters).select('id'), countCapFor(page, pageSize)),
  ]);
  return { rows, ...count };
}

/** Every matching entry, oldest first, in keyset batches on (at, id) so memory stays flat. */
export function auditBatches(db: DbOrTrx, filters: AuditFilters, batchSize = 5000): AsyncGenerator<AuditRow[]> {
  return keysetBatches<AuditRow>(
    (after, limit) =>
      filteredAudit(db, filters)
        .select(['id', 'actor', 'action', 'details', 'screen', 'at'])
        .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('at', 'id'), '>', eb.tuple(after!.at, after!.id))))
        .orderBy('at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute(),
    batchSize,
  );
}
