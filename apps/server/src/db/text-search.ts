import { sql, type Expression, type SqlBool } from 'kysely';
import { containsIgnoringCase } from './contains';
import { isPostgresDb, type DbOrTrx } from './database';

/**
 * The searched columns that have a trigram index on SQLite (migration 2026_11_25_0001): the FTS5 table, the key
 * it holds of each row, and the column's name in it. PostgreSQL serves the same searches with pg_trgm indexes.
 * The audit log's index holds each entry's id negated (`-rowid`, migration 2026_11_26_0600), so that reading it
 * forwards, which stops at a page, gives the newest entries first.
 */
const SQLITE_SEARCH = {
  'login_emails.email': { fts: 'login_emails_search', key: 'rowid', column: 'email' },
  'audit_log.actor': { fts: 'audit_log_search', key: '-rowid', column: 'actor' },
  'audit_log.action': { fts: 'audit_log_search', key: '-rowid', column: 'action' },
  'audit_log.details': { fts: 'audit_log_search', key: '-rowid', column: 'details' },
  'audit_log.screen': { fts: 'audit_log_search', key: '-rowid', column: 'screen' },
  'users.email': { fts: 'users_search', key: 'id', column: 'email' },
  'users.full_name': { fts: 'users_search', key: 'id', column: 'full_name' },
  'users.designation': { fts: 'users_search', key: 'id', column: 'designation' },
  // 2026_11_26_0300: the programmes lists and pickers.
  'cohorts.name': { fts: 'cohorts_search', key: 'id', column: 'name' },
  'learning_paths.name': { fts: 'learning_paths_search', key: 'id', column: 'name' },
  'scenarios.name': { fts: 'scenarios_search', key: 'id', column: 'name' },
} as const satisfies Record<string, { fts: string; key: 'rowid' | '-rowid' | 'id'; column: string }>;

export type SearchedColumn = keyof typeof SQLITE_SEARCH;

/** The key of each row an FTS table holds, as the source table has it (see SQLITE_SEARCH). */
function keyInIndex(fts: string, key: 'rowid' | '-rowid' | 'id') {
  return key === '-rowid' ? sql`-${sql.ref(`${fts}.rowid`)}` : sql.ref(`${fts}.${key}`);
}

/** An FTS table's rows in the order of their keys: on its own column, so the index reads its lists that way. */
function keyOrder(fts: string, key: 'rowid' | '-rowid' | 'id', dir: 'asc' | 'desc') {
  if (key !== '-rowid') return sql`${sql.ref(`${fts}.${key}`)} ${sql.raw(dir)}`;
  return sql`${sql.ref(`${fts}.rowid`)} ${sql.raw(dir === 'asc' ? 'desc' : 'asc')}`;
}

/** A phrase in an FTS5 query: the text in quotes, its quotes doubled. */
const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** One text searched in a set of columns of one FTS table. */
interface TextIn {
  columns: readonly SearchedColumn[];
  text: string;
}

/**
 * An FTS5 query for the rows where any of the columns holds the text: a phrase under a column set. One phrase over
 * several columns reads each trigram's list of rows once, where one phrase per column ORed together would read it
 * once per column.
 */
const phraseOf = ({ columns, text }: TextIn, terms = quoted(text)) =>
  `{${columns.map((column) => SQLITE_SEARCH[column].column).join(' ')}} : ${terms}`;

/** The texts of a search: each in its column (a row holds every text) or each in all its columns (any). */
function textsOf(searches: readonly { column: SearchedColumn; text: string }[], holding: 'every' | 'any'): TextIn[] {
  if (holding === 'every') return searches.map(({ column, text }) => ({ columns: [column], text }));
  const columnsByText = new Map<string, SearchedColumn[]>();
  for (const { column, text } of searches) columnsByText.set(text, [...(columnsByText.get(text) ?? []), column]);
  return [...columnsByText].map(([text, columns]) => ({ columns, text }));
}

/** A trigram index finds nothing shorter than three characters: such searches scan, as before. */
const TRIGRAM = 3;

/** The text's distinct trigrams, as the index splits it (three characters at a time; the index folds their case). */
function trigramsOf(text: string): string[] {
  const chars = [...text];
  return [
    ...new Set(chars.slice(0, chars.length - TRIGRAM + 1).map((_, at) => chars.slice(at, at + TRIGRAM).join(''))),
  ];
}

/**
 * How far a probe counts a trigram's rows. Fewer: the trigram is rare enough to rank, and the rows holding the two
 * rarest are few enough to check one by one. More: it is common, and which common one is rarer matters not. Counting
 * to the cap reads that many entries of the index (about a millisecond here); a count is kept ten minutes
 * (trigramRows). At 2,048, a million audit entries made every trigram of "seed-00012" common ("000", "001" and
 * "012" are each in about 2,200), so the search read the lists of all of them, 30 ms instead of 1.
 */
const PROBE_CAP = 8192;

/**
 * What a search learnt of a database lately (how many rows hold a trigram, a column's statistics), per database handle
 * and key, forgotten after `forMs`, the oldest first beyond KEPT keys.
 */
function expiringPerHandle<V>(forMs: number) {
  const KEPT = 4096;
  const byHandle = new WeakMap<DbOrTrx, Map<string, { until: number; value: V }>>();
  const known = (db: DbOrTrx) => {
    let entries = byHandle.get(db);
    if (!entries) byHandle.set(db, (entries = new Map()));
    return entries;
  };
  return {
    get(db: DbOrTrx, key: string): V | undefined {
      const entry = known(db).get(key);
      return entry && entry.until > Date.now() ? entry.value : undefined;
    },
    set(db: DbOrTrx, key: string, value: V): void {
      const entries = known(db);
      entries.delete(key);
      if (entries.size >= KEPT) entries.delete(entries.keys().next().value!);
      entries.set(key, { until: Date.now() + forMs, value });
    },
    forget(db: DbOrTrx, key: string): void {
      known(db).delete(key);
    },
  };
}

/**
 * How many rows held each trigram lately (`fts|columns|trigram`, counted up to PROBE_CAP), so that a text's trigrams
 * are ranked without being counted again for ten minutes. A count that has changed since only ranks them less well:
 * the callers' LIKE decides which rows match. A trigram no row held is not kept: that count decides that nothing
 * matches, so it is taken afresh on every search, and a row written a moment ago is found.
 */
const trigramRows = expiringPerHandle<number>(10 * 60_000);

/**
 * The FTS5 query for the search, narrowed to what costs little; null when the index shows that no row can match.
 * A phrase query's cost follows the rows holding each of its trigrams, common or not: at ten times the people,
 * "seed-00012" costs four times as much, because "see" and "d-0" are in nearly every email while a thousand hold
 * "012". So where a text has more than two trigrams, one statement counts the rows holding each (up to PROBE_CAP;
 * those counted in the last ten minutes are not counted again), and the query asks only for the rows holding its
 * two rarest, which the callers' LIKE then checks: their cost follows the rarest trigrams, not the table. A text whose trigrams are all
 * common keeps its phrase (its rows are then many, and found among the first read). A trigram no row holds matches
 * nothing. Several texts (one per column, or one in several columns) are each narrowed on their own.
 */
export async function searchIndexQuery(
  db: DbOrTrx,
  searches: readonly { column: SearchedColumn; text: string }[],
  holding: 'every' | 'any',
): Promise<string | null> {
  const fts = SQLITE_SEARCH[searches[0]!.column].fts;
  const texts = textsOf(searches, holding).map((text) => ({
    text,
    trigrams: trigramsOf(text.text).map((trigram) => {
      const probe = phraseOf(text, quoted(trigram));
      return { trigram, probe, key: `${fts}|${probe}` };
    }),
  }));
  const probes = [
    ...new Set(
      texts.flatMap(({ trigrams }) =>
        trigrams.length > 2
          ? trigrams.filter(({ key }) => trigramRows.get(db, key) === undefined).map(({ probe }) => probe)
          : [],
      ),
    ),
  ];
  const counts = new Map<string, number>();
  if (probes.length > 0) {
    const table = sql.table(fts);
    const { rows } = await sql<Record<string, number>>`select ${sql.join(
      probes.map(
        (probe, at) =>
          sql`(select count(*) from (select 1 from ${table} where ${table} match ${probe} limit ${PROBE_CAP})) as ${sql.ref(`p${at}`)}`,
      ),
    )}`.execute(db);
    probes.forEach((probe, at) => counts.set(probe, Number(rows[0]![`p${at}`])));
  }
  const queries: string[] = [];
  for (const { text, trigrams } of texts) {
    const rarest = trigrams
      .map(({ trigram, probe, key }) => {
        const rows = counts.get(probe) ?? trigramRows.get(db, key) ?? PROBE_CAP;
        if (rows > 0 && counts.has(probe)) trigramRows.set(db, key, rows);
        return { trigram, rows };
      })
      .sort((a, b) => a.rows - b.rows);
    if (rarest[0]?.rows === 0) {
      if (holding === 'every') return null;
      continue;
    }
    const narrow = rarest.length > 2 && rarest[0]!.rows < PROBE_CAP;
    queries.push(
      narrow ? phraseOf(text, `(${quoted(rarest[0]!.trigram)} AND ${quoted(rarest[1]!.trigram)})`) : phraseOf(text),
    );
  }
  return queries.length === 0 ? null : queries.join(holding === 'every' ? ' AND ' : ' OR ');
}

/**
 * "Contains, ignoring case" on a searched column (docs/operations.md, "Searching and counting"). On SQLite a
 * search of three characters or more first narrows the rows to the trigram index's matches (a phrase query
 * matches exactly the rows holding the text), then keeps the same LIKE test as everywhere, so both databases and
 * both paths answer alike. `key` is the row's key in the query (`login_events.id`, `users.id`...).
 */
export function containsText(
  db: DbOrTrx,
  searched: SearchedColumn,
  key: Expression<unknown>,
  value: Expression<unknown>,
  text: string,
): Expression<SqlBool> {
  const like = containsIgnoringCase(value, text);
  if (isPostgresDb(db) || [...text].length < TRIGRAM) return like;
  const { fts, key: ftsKey } = SQLITE_SEARCH[searched];
  const phrase = phraseOf({ columns: [searched], text });
  return sql<SqlBool>`(${key} in (select ${keyInIndex(fts, ftsKey)} from ${sql.raw(fts)} where ${sql.raw(fts)} match ${phrase}) and ${like})`;
}

/** What matchesThroughSearchIndex reads: see there. */
export interface IndexedSearch<V> {
  /** The table searched, and its rows' key (`audit_log.id`), which the index holds. */
  table: string;
  key: Expression<unknown>;
  /** What to read of each matching row (often the key). */
  value: Expression<V>;
  searches: { column: SearchedColumn; text: string }[];
  /**
   * Every condition a row must meet, the searches' own LIKE tests included: the index's query may find rows that
   * hold a text's rarest trigrams but not the text (searchIndexQuery).
   */
  conditions: Expression<SqlBool>[];
  limit: number;
  /** A row holds every text (one per column, as the audit log's filters) or any (one text in several columns). */
  holding?: 'every' | 'any';
  /**
   * Rows in the order of their keys, skipping `offset` of them, read from the index in that order: cheap in the
   * order the index holds its keys (ascending `rowid`, so the audit log's newest first), while the other way
   * first loads the whole list of each of the text's trigrams.
   */
  inKeyOrder?: { dir: 'asc' | 'desc'; offset: number };
}

/**
 * On SQLite, up to `limit` rows matching `conditions` that hold the searched texts, read from the trigram index:
 * its matches are taken one by one and joined to their rows, stopping at `limit`, where `key in (matches)` would
 * first collect every match (for a common text, most of the table). Several texts are one index query, which asks
 * for each text's rarest trigrams (searchIndexQuery); [] when a trigram of a text that must be held is in no row. Null on
 * PostgreSQL or when a text is too short for the index: the caller then reads the table. The index only finds
 * the candidates; the same LIKE as everywhere (in `conditions`) decides.
 */
export async function matchesThroughSearchIndex<V>(db: DbOrTrx, search: IndexedSearch<V>): Promise<V[] | null> {
  const { table, key, value, searches, conditions, limit, holding = 'every', inKeyOrder } = search;
  const indexed = searches.filter(({ text }) => [...text].length >= TRIGRAM);
  // A row holding any text may hold only one too short for the index: the index would miss it.
  if (isPostgresDb(db) || indexed.length === 0 || (holding === 'any' && indexed.length < searches.length)) return null;
  const { fts, key: ftsKey } = SQLITE_SEARCH[indexed[0]!.column];
  if (indexed.some(({ column }) => SQLITE_SEARCH[column].fts !== fts)) return null;
  const match = await searchIndexQuery(db, indexed, holding);
  if (match === null) return [];
  const { rows } = await sql<{ value: V }>`select ${value} as value
    from ${sql.table(fts)} join ${sql.table(table)} on ${key} = ${keyInIndex(fts, ftsKey)}
    where ${sql.table(fts)} match ${match} and ${sql.join(conditions, sql` and `)}
    ${inKeyOrder ? sql`order by ${keyOrder(fts, ftsKey, inKeyOrder.dir)}` : sql``}
    limit ${limit} ${inKeyOrder ? sql`offset ${inKeyOrder.offset}` : sql``}`.execute(db);
  return rows.map((row) => row.value);
}

/**
 * PostgreSQL's trigram index of each searched column (migrations 2026_11_23_0801, 2026_11_26_0001 and
 * 2026_11_26_0300). ANALYZE samples the indexed expression, lower(column), into pg_stats under the index's name.
 */
const POSTGRES_INDEX: Record<SearchedColumn, string> = {
  'login_emails.email': 'login_emails_trgm_idx',
  'audit_log.actor': 'audit_log_actor_trgm_idx',
  'audit_log.action': 'audit_log_action_trgm_idx',
  'audit_log.details': 'audit_log_details_trgm_idx',
  'audit_log.screen': 'audit_log_screen_trgm_idx',
  'users.email': 'users_email_trgm_idx',
  'users.full_name': 'users_name_trgm_idx',
  'users.designation': 'users_designation_trgm_idx',
  'cohorts.name': 'cohorts_name_trgm_idx',
  'learning_paths.name': 'learning_paths_name_trgm_idx',
  'scenarios.name': 'scenarios_name_trgm_idx',
};

/** A sample of an indexed column's values, each with the share of the rows it stands for. */
type Sample = { value: string; share: number }[];

/** The statistics samples read lately, per index, looked at again after ten minutes. */
const samples = expiringPerHandle<Promise<Sample>>(10 * 60_000);

/**
 * What ANALYZE last sampled of an index's expression: its most common values with their frequencies, and the
 * bounds of its histogram sharing the rest. Empty before the first ANALYZE, or without pg_trgm (no index).
 */
function statisticsSample(db: DbOrTrx, index: string): Promise<Sample> {
  const cached = samples.get(db, index);
  if (cached) return cached;
  const sample = sql<{ common: string[] | null; frequencies: number[] | null; bounds: string[] | null }>`
    select most_common_vals::text::text[] as common, most_common_freqs as frequencies,
      histogram_bounds::text::text[] as bounds
    from pg_stats where schemaname = current_schema() and tablename = ${index}`
    .execute(db)
    .then(({ rows }) => {
      const { common, frequencies, bounds } = rows[0] ?? { common: null, frequencies: null, bounds: null };
      const mostCommon = (common ?? []).map((value, at) => ({ value, share: Number(frequencies?.[at] ?? 0) }));
      const rest = 1 - mostCommon.reduce((sum, { share }) => sum + share, 0);
      return [...mostCommon, ...(bounds ?? []).map((value) => ({ value, share: rest / bounds!.length }))];
    });
  samples.set(db, index, sample);
  sample.catch(() => samples.forget(db, index));
  return sample;
}

/** Below this share of the sampled rows a trigram is rare enough to ask the index for alone. */
const RARE_SHARE = 0.05;

/**
 * "Contains, ignoring case" on a searched column, as a condition PostgreSQL's trigram index serves at the cost of
 * the text's rarest trigrams (docs/operations.md, "Searching and counting"). pg_trgm's index reads the list of
 * rows of every trigram of the pattern, so "seed-00012" reads those of "see" and "eed", which every email holds,
 * to find ten. Here ANALYZE's sample of the column says which trigrams of the text are rare; the index is asked
 * for the rows holding the two rarest (`lower(column) like '%012%'`), and `strpos`, which no index serves, tests
 * the whole text on those alone: the same rows as the LIKE. Only trigrams of three ASCII letters or digits are
 * used, which lower() maps one to one in every locale and pg_trgm takes as one trigram. Without a sample, or when
 * every such trigram is common, it is the plain LIKE. SQLite's searches narrow in searchIndexQuery instead.
 */
export async function containsOnIndex(
  db: DbOrTrx,
  searched: SearchedColumn,
  value: Expression<unknown>,
  text: string,
): Promise<Expression<SqlBool>> {
  const like = containsIgnoringCase(value, text);
  if (!isPostgresDb(db)) return like;
  const windows = trigramsOf(text).filter((trigram) => /^[a-z0-9]{3}$/i.test(trigram));
  if (windows.length === 0) return like;
  const sample = await statisticsSample(db, POSTGRES_INDEX[searched]);
  if (sample.length === 0) return like;
  const share = (window: string) =>
    sample.reduce((sum, { value, share }) => (value.includes(window.toLowerCase()) ? sum + share : sum), 0);
  const rare = [...new Map(windows.map((window) => [window.toLowerCase(), window])).values()]
    .map((window) => ({ window, share: share(window) }))
    .filter(({ share }) => share < RARE_SHARE)
    .sort((a, b) => a.share - b.share)
    .slice(0, 2);
  if (rare.length === 0) return like;
  const holds = rare.map(({ window }) => sql<SqlBool>`lower(${value}) like lower(${`%${window}%`})`);
  return sql<SqlBool>`(${sql.join(holds, sql` and `)} and strpos(lower(${value}), lower(${text})) > 0)`;
}

/**
 * "Contains, ignoring case" as a condition the column's search index serves, on either database: SQLite's
 * trigram table (containsText), PostgreSQL's trigram index narrowed to the text's rarest trigrams
 * (containsOnIndex).
 */
export function containsThroughIndex(
  db: DbOrTrx,
  searched: SearchedColumn,
  key: Expression<unknown>,
  value: Expression<unknown>,
  text: string,
): Promise<Expression<SqlBool>> {
  return isPostgresDb(db)
    ? containsOnIndex(db, searched, value, text)
    : Promise.resolve(containsText(db, searched, key, value, text));
}
