import type { AuditSortColumn, SortDirection } from '@tradecraft/shared';
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import { collectedFirst } from '../../db/collected-first';
import { boundedCount, boundedTotal, COUNT_CAP_MIN, countCapFor, type BoundedTotal } from '../../db/bounded-count';
import { containsIgnoringCase } from '../../db/contains';
import { containsThroughIndex, matchesThroughSearchIndex, type SearchedColumn } from '../../db/text-search';
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
const AUDIT_COLUMNS = ['id', 'actor', 'action', 'details', 'screen', 'at'] as const;

/** Each text filter of a search as a condition through its column's trigram index. */
type IndexedTexts = Partial<Record<(typeof TEXT_FILTERS)[number], Expression<SqlBool>>>;

/** The text filters as conditions their trigram indexes serve (containsThroughIndex). */
async function indexedTexts(db: DbOrTrx, filters: AuditFilters): Promise<IndexedTexts> {
  const each = await Promise.all(
    TEXT_FILTERS.map(async (column) => {
      const text = filters[column]?.trim();
      if (!text) return [];
      const value = sql.ref(`audit_log.${column}`);
      return [[column, await containsThroughIndex(db, `audit_log.${column}`, sql.ref('audit_log.id'), value, text)]];
    }),
  );
  return Object.fromEntries(each.flat());
}

/**
 * The filters as conditions on `audit_log`. A text filter is "contains, ignoring case": through the trigram
 * index (`IndexedTexts`, see indexedTexts), or by testing each entry read (`scan`).
 */
function auditConditions(filters: AuditFilters, texts: IndexedTexts | 'scan'): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  for (const column of TEXT_FILTERS) {
    const text = filters[column]?.trim();
    if (!text) continue;
    const indexed = texts === 'scan' ? undefined : texts[column];
    conditions.push(indexed ?? containsIgnoringCase(sql.ref(`audit_log.${column}`), text));
  }
  if (filters.fromIso !== undefined) conditions.push(sql<SqlBool>`${sql.ref('audit_log.at')} >= ${filters.fromIso}`);
  if (filters.toIsoExclusive !== undefined)
    conditions.push(sql<SqlBool>`${sql.ref('audit_log.at')} < ${filters.toIsoExclusive}`);
  return conditions;
}

function filteredAudit(db: DbOrTrx, filters: AuditFilters, texts: IndexedTexts | 'scan') {
  const conditions = auditConditions(filters, texts);
  const query = db.selectFrom('audit_log');
  return conditions.length === 0 ? query : query.where((eb) => eb.and(conditions));
}

/**
 * One page of the audit log. Text columns sort case-insensitively, an empty value as ''.
 *
 * A search first reads the keys of its matches, up to the count's cap, through the search index where it has one
 * (docs/operations.md, "Searching and counting"). When they are few (an exact total of at most COUNT_CAP_MIN), the
 * page is sorted from them alone, rather than walking the sort's index from the top and testing every entry, which
 * reads the whole log when the matches are old. When there are more, the text is common: a walk finds a page among
 * the first entries it reads, and the walk stops after WALK_BUDGET entries per entry up to the page's end; when it
 * found part of the page, the matches' density says how far a second walk must go (up to WALK_BUDGET_MAX). A text
 * found only far down the order (long ago) is then sorted from its matches. On SQLite a search sorted by time
 * first tries the index's own order (pageInKeyOrder), which stops at the page wherever the matches lie.
 */
export async function listAuditEntries(
  db: DbOrTrx,
  filters: AuditFilters,
  options: { sort: AuditSortColumn; dir: SortDirection; page: number; pageSize: number },
): Promise<{ rows: AuditRow[] } & BoundedTotal> {
  const cap = countCapFor(options.page, options.pageSize);
  const searches = TEXT_FILTERS.flatMap((column) => {
    const text = filters[column]?.trim();
    return text ? [{ column: `audit_log.${column}` as const, text }] : [];
  });
  if (searches.length === 0) {
    const [rows, count] = await Promise.all([
      auditPage(filteredAudit(db, filters, 'scan').select([...AUDIT_COLUMNS]), options),
      boundedCount(db, filteredAudit(db, filters, 'scan').select('id'), cap),
    ]);
    return { rows, ...count };
  }
  const indexed = await matchesThroughSearchIndex(db, {
    table: 'audit_log',
    key: sql.ref('audit_log.id'),
    value: sql.ref<number>('audit_log.id'),
    searches,
    conditions: auditConditions(filters, 'scan'),
    limit: cap + 1,
  });
  const texts = await indexedTexts(db, filters);
  const count = indexed
    ? boundedTotal(indexed.length, cap)
    : await boundedCount(db, filteredAudit(db, filters, texts).select('id'), cap);
  if (count.total === 0) return { rows: [], ...count };
  // Only a page the matches can fill (pageInKeyOrder takes no other).
  const fillable = count.totalIsLowerBound || count.total >= options.page * options.pageSize;
  if (indexed && options.sort === 'timestamp' && fillable) {
    const page = await pageInKeyOrder(db, filters, searches, options);
    if (page) return { rows: page, ...count };
  }
  // Deep pages count further than COUNT_CAP_MIN: that many matches are common text too (and too many keys to pass).
  if (count.totalIsLowerBound || count.total > COUNT_CAP_MIN) {
    const pageEnd = options.page * options.pageSize;
    const firstWalk = WALK_BUDGET * pageEnd;
    let walked = await auditPage(recentAudit(db, filters, options, firstWalk), options);
    // Matches spread thinly (one in a few hundred entries): the first walk found part of the page. Their density
    // says where the page ends; a second walk goes that far and a quarter more, within WALK_BUDGET_MAX, unless
    // the matches the density expects in the whole log are fewer than the entries it would read: sorting those
    // costs less.
    const found = walked.length > 0 ? pageEnd - options.pageSize + walked.length : 0;
    const reach = found > 0 ? Math.ceil((firstWalk * pageEnd * 1.25) / found) : Number.POSITIVE_INFINITY;
    if (
      walked.length < options.pageSize &&
      reach <= WALK_BUDGET_MAX * pageEnd &&
      reach < (found / firstWalk) * (await auditLogSpan(db))
    )
      walked = await auditPage(recentAudit(db, filters, options, reach), options);
    if (walked.length === options.pageSize) return { rows: walked, ...count };
    // Matches bunched far down the order (a common text, but only long ago): sorted from the matches instead.
    return { rows: await pageOfMatches(db, filteredAudit(db, filters, texts), options), ...count };
  }
  const matches = indexed ? db.selectFrom('audit_log').where('id', 'in', indexed) : filteredAudit(db, filters, texts);
  return { rows: await pageOfMatches(db, matches, options), ...count };
}

/**
 * On SQLite, a page sorted by time read from the trigram index in the order of its keys, which is the order of
 * time from the key `audit_log_time_order` names on (migration 2026_11_26_0600): newest first, the index stops at
 * the page, however many entries match. Oldest first only when the whole log is in order. Null unless the page is
 * full: its entries then come before any outside the ordered part; a short page may be missing some of those.
 */
async function pageInKeyOrder(
  db: DbOrTrx,
  filters: AuditFilters,
  searches: { column: SearchedColumn; text: string }[],
  options: { dir: SortDirection; page: number; pageSize: number },
): Promise<AuditRow[] | null> {
  const inOrderFrom = sql`(select in_order_from from audit_log_time_order)`;
  const inOrder =
    options.dir === 'desc'
      ? sql<SqlBool>`${sql.ref('audit_log.id')} >= ${inOrderFrom}`
      : sql<SqlBool>`${inOrderFrom} <= (select coalesce(min(id), 0) from audit_log)`;
  const ids = await matchesThroughSearchIndex(db, {
    table: 'audit_log',
    key: sql.ref('audit_log.id'),
    value: sql.ref<number>('audit_log.id'),
    searches,
    conditions: [...auditConditions(filters, 'scan'), inOrder],
    limit: options.pageSize,
    inKeyOrder: { dir: options.dir, offset: (options.page - 1) * options.pageSize },
  });
  if (!ids || ids.length < options.pageSize) return null;
  return entriesByKey(db, ids, { sort: 'timestamp', dir: options.dir });
}

/** The entries of the given keys, in the order of a sort. */
function entriesByKey(db: DbOrTrx, ids: number[], { sort, dir }: { sort: AuditSortColumn; dir: SortDirection }) {
  return ordered(
    db
      .selectFrom('audit_log')
      .select([...AUDIT_COLUMNS])
      .where('id', 'in', ids),
    sort,
    dir,
  ).execute();
}

/**
 * One page of the entries a query matches, sorted from the matches alone (collected first): only their keys and
 * what the sort reads are collected and sorted, then the page's entries are read by key, so a few thousand
 * matches are not copied whole to be sorted.
 */
async function pageOfMatches(
  db: DbOrTrx,
  matches: ReturnType<typeof filteredAudit>,
  options: { sort: AuditSortColumn; dir: SortDirection; page: number; pageSize: number },
): Promise<AuditRow[]> {
  const keys = matches.select(['audit_log.id', 'audit_log.at']);
  const sortKeys =
    options.sort === 'timestamp' ? keys : keys.select(sql.ref<string | null>(options.sort).as(options.sort));
  const page = await ordered(collectedFirst(db, sortKeys), options.sort, options.dir)
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize)
    .execute();
  if (page.length === 0) return [];
  return entriesByKey(
    db,
    page.map((row) => row.id),
    options,
  );
}

/** How many entries the log holds, about: the span of its keys (each end one read of the key's index). */
async function auditLogSpan(db: DbOrTrx): Promise<number> {
  // Two queries of one aggregate each: SQLite reads an index's end only for a query's lone min() or max().
  const end = (which: 'min' | 'max') =>
    db
      .selectFrom('audit_log')
      .select((eb) => eb.fn[which]<number | null>('id').as('id'))
      .executeTakeFirst()
      .then((row) => (row?.id == null ? null : Number(row.id)));
  const [first, last] = await Promise.all([end('min'), end('max')]);
  return first === null || last === null ? 0 : last - first + 1;
}

/** How far down the order a common text's page is looked for, in entries per entry up to the page's end. */
const WALK_BUDGET = 100;
/** How far a second walk may go, when the first found part of the page (entries per entry up to the page's end). */
const WALK_BUDGET_MAX = 1000;

/**
 * The first `budget` entries in the page's order (within the date range), the text filters tested on them alone:
 * a walk of the sort's index that stops after `budget` entries however rare the matches turn out to be.
 */
function recentAudit(
  db: DbOrTrx,
  filters: AuditFilters,
  { sort, dir }: { sort: AuditSortColumn; dir: SortDirection },
  budget: number,
) {
  const dates = { fromIso: filters.fromIso, toIsoExclusive: filters.toIsoExclusive };
  const recent = ordered(filteredAudit(db, dates, 'scan').select([...AUDIT_COLUMNS]), sort, dir).limit(budget);
  const texts = auditConditions({ ...filters, fromIso: undefined, toIsoExclusive: undefined }, 'scan');
  // Named as the table, so the text filters read the same columns.
  return db
    .selectFrom(recent.as('audit_log'))
    .selectAll()
    .where((eb) => eb.and(texts));
}

/** Audit rows in the order of a sort (each sort's index ends in the time and the key, both the same way). */
function ordered<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  sort: AuditSortColumn,
  dir: SortDirection,
) {
  const sorted = sort === 'timestamp' ? query : query.orderBy(sql`lower(coalesce(${sql.ref(sort)}, ''))`, dir);
  return sorted.orderBy(sql.ref('at'), dir).orderBy(sql.ref('id'), dir);
}

/** Sorts and pages the audit rows a query selects (from the table, or from the matches of a search). */
function auditPage<DB, TB extends keyof DB>(
  query: SelectQueryBuilder<DB, TB, AuditRow>,
  { sort, dir, page, pageSize }: { sort: AuditSortColumn; dir: SortDirection; page: number; pageSize: number },
): Promise<AuditRow[]> {
  return ordered(query, sort, dir)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
}

/** Every matching entry, oldest first, in keyset batches on (at, id) so memory stays flat. */
export function auditBatches(db: DbOrTrx, filters: AuditFilters, batchSize = 5000): AsyncGenerator<AuditRow[]> {
  let texts: Promise<IndexedTexts> | undefined;
  return keysetBatches<AuditRow>(
    async (after, limit) =>
      filteredAudit(db, filters, await (texts ??= indexedTexts(db, filters)))
        .select([...AUDIT_COLUMNS])
        .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('at', 'id'), '>', eb.tuple(after!.at, after!.id))))
        .orderBy('at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute(),
    batchSize,
  );
}
