import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLoginEvents } from '../features/activity/activity.repository';
import { listAuditEntries } from '../features/audit/audit.repository';
import { sql } from 'kysely';
import { createTestApp, usingPostgres, type TestApp } from '../../test/helper';
import { recordingQueries } from '../../test/recorded-queries';
import { migrateToLatest, openDatabase, type Db } from './database';
import { containsOnIndex, searchIndexQuery } from './text-search';

// The FTS5 query a search asks of SQLite's trigram index: its two rarest trigrams when the text has more, so that
// the cost follows the matches and not the rows holding its common trigrams. Only SQLite has these indexes, so this
// test makes its own SQLite file on either run; the searches' answers are checked on both in text-search.test.ts.
describe("the trigram index's query for a search (SQLite)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-search-query-'));
  let db: Db;
  beforeAll(async () => {
    db = openDatabase({ sqliteFile: path.join(dir, 'search.db') }).db;
    await migrateToLatest(db);
    const at = '2026-11-26T10:00:00.000Z';
    // 8,300 emails share "seed-" (more rows than a probe counts); of the trigrams of "seed-00012", "000" is in 108
    // of them, "001" and "012" in 119, "-00" in 1,000.
    const emails = Array.from({ length: 8300 }, (_, n) => `seed-${String(n).padStart(5, '0')}@corp.test`);
    // Holds the rarest trigrams of "seed-00012", but not the text.
    emails.push('x000y001z012@decoy.test', 'İstanbul.lead@corp.test');
    for (let from = 0; from < emails.length; from += 500)
      await db
        .insertInto('login_events')
        .values(
          emails.slice(from, from + 500).map((email) => ({ email, role: 'trainee', event: 'login', ip: null, at })),
        )
        .execute();
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const query = (text: string) => searchIndexQuery(db, [{ column: 'login_emails.email', text }], 'every');
  const emailsFound = async (search: string) =>
    (await listLoginEvents(db, { search }, { sort: 'email', dir: 'asc', page: 1, pageSize: 50 })).rows.map(
      (row) => row.email,
    );

  it('asks only for the rows holding the two rarest trigrams of a text that has more', async () => {
    expect(await query('seed-00012')).toBe('{email} : ("000" AND "001")');
  });

  it('keeps the phrase when every trigram is common, or when the text has two trigrams or fewer', async () => {
    expect(await query('seed-')).toBe('{email} : "seed-"');
    expect(await query('d-00')).toBe('{email} : "d-00"');
  });

  it('finds nothing without asking further when a trigram of the text is in no row', async () => {
    expect(await query('seed-zzz')).toBeNull();
    expect(await emailsFound('seed-zzz')).toEqual([]);
  });

  it('finds a text in a row written after a search found no row holding it', async () => {
    expect(await emailsFound('late-comer')).toEqual([]);
    await db
      .insertInto('login_events')
      .values({ email: 'late-comer@corp.test', role: 'trainee', event: 'login', ip: null, at: '2026-11-26T11:00:00Z' })
      .execute();
    expect(await emailsFound('late-comer')).toEqual(['late-comer@corp.test']);
  });

  it('returns only the rows holding the whole text, not those holding its rarest trigrams apart', async () => {
    expect(await emailsFound('seed-00012')).toEqual(['seed-00012@corp.test']);
    expect(await emailsFound('SEED-0012')).toEqual(Array.from({ length: 10 }, (_, n) => `seed-0012${n}@corp.test`));
  });

  it("reads a text's trigrams as the index does, character by character, folding their case itself", async () => {
    // Lower-casing "İ" first would make two characters of it, and trigrams no row holds.
    expect(await emailsFound('İstanbul')).toEqual(['İstanbul.lead@corp.test']);
  });

  it('narrows each searched column of the audit log on its own', async () => {
    await db
      .insertInto('audit_log')
      .values([
        {
          actor: 'lead@corp.test',
          action: 'upload scenario',
          details: 'variant 12 of 300',
          at: '2026-11-26T10:00:00Z',
        },
        { actor: 'lead@corp.test', action: 'upload scenario', details: 'variant 3 of 12', at: '2026-11-26T10:01:00Z' },
      ])
      .execute();
    const details = async (filters: Record<string, string>) =>
      (await listAuditEntries(db, filters, { sort: 'timestamp', dir: 'asc', page: 1, pageSize: 10 })).rows.map(
        (row) => row.details,
      );
    expect(await details({ details: 'variant 12', actor: 'LEAD@corp' })).toEqual(['variant 12 of 300']);
    expect(await details({ details: 'variant 12', actor: 'other@corp' })).toEqual([]);
  });
});

// On PostgreSQL a search asks pg_trgm's index for the text's rarest trigrams, as ANALYZE's sample of the column
// ranks them (containsOnIndex).
const onPostgres = usingPostgres() ? describe : null;
onPostgres?.("the trigram index's condition for a search (PostgreSQL)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const at = '2026-11-26T10:00:00.000Z';
    const emails = Array.from({ length: 1000 }, (_, n) => `common-${n}@corp.test`);
    // The rare ones, and one holding every trigram of "rare-xyzzy-2" but not the text.
    emails.push('rare-xyzzy-1@corp.test', 'rare-xyzzy-2@corp.test', 'rare.xyzzy.2@decoy.test');
    await t.db
      .insertInto('login_events')
      .values(emails.map((email) => ({ email, role: 'trainee', event: 'login' as const, ip: null, at })))
      .execute();
    await sql`analyze login_emails`.execute(t.db);
  });
  afterAll(() => t.close());

  const condition = async (text: string) =>
    t.db
      .selectFrom('login_emails')
      .select('email')
      .where(await containsOnIndex(t.db, 'login_emails.email', sql.ref('login_emails.email'), text))
      .compile();

  it('asks the index for two rare trigrams of the text and tests the whole text with strpos', async () => {
    const { sql: statement, parameters } = await condition('RARE-xyzzy-2');
    expect(statement).toContain('strpos(lower("login_emails"."email"), lower($3)) > 0');
    const trigrams = parameters.slice(0, 2).map((pattern) => String(pattern).toLowerCase());
    expect(trigrams).toHaveLength(2);
    for (const pattern of trigrams) expect(['%rar%', '%are%', '%xyz%', '%yzz%', '%zzy%']).toContain(pattern);
    expect(parameters[2]).toBe('RARE-xyzzy-2');
  });

  it('keeps the plain LIKE when every trigram of the text is common', async () => {
    const { sql: statement, parameters } = await condition('common-1');
    expect(statement).not.toContain('strpos');
    expect(parameters).toEqual(['%common-1%']);
  });

  it('finds exactly the rows holding the text, not those holding its trigrams apart', async () => {
    const found = await listLoginEvents(
      t.db,
      { search: 'RARE-xyzzy-2' },
      {
        sort: 'email',
        dir: 'asc',
        page: 1,
        pageSize: 10,
      },
    );
    expect(found.rows.map((row) => row.email)).toEqual(['rare-xyzzy-2@corp.test']);
  });

  it("narrows the audit log's text filters the same way, and finds exactly the entries holding the text", async () => {
    const at = '2026-11-26T12:00:00.000Z';
    const details = [
      ...Array.from({ length: 1000 }, (_, n) => `Uploaded scenario "Common ${n}"`),
      'Uploaded scenario "Rare qzx-7"',
      'Uploaded scenario "Rare qzx-8"',
      // Holds "qzx", the rare trigram of "qzx-7", but not the text.
      'Uploaded scenario "qzx 7-qzx"',
    ];
    await t.db
      .insertInto('audit_log')
      .values(
        details.map((text) => ({
          actor: 'admin@corp.test',
          action: 'upload scenario',
          details: text,
          screen: null,
          at,
        })),
      )
      .execute();
    await sql`analyze audit_log`.execute(t.db);

    const recorded = recordingQueries(t.db);
    const found = await listAuditEntries(
      recorded.db,
      { details: 'QZX-7' },
      { sort: 'timestamp', dir: 'desc', page: 1, pageSize: 10 },
    );
    expect(found.rows.map((row) => row.details)).toEqual(['Uploaded scenario "Rare qzx-7"']);
    expect(found).toMatchObject({ total: 1, totalIsLowerBound: false });
    const statements = recorded.sent().map((query) => query.sql);
    const searching = statements.filter((statement) => statement.includes('"audit_log"."details"'));
    expect(searching.length).toBeGreaterThan(0);
    for (const statement of searching) expect(statement).toContain('strpos(lower("audit_log"."details"), lower(');
  });
});
