import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { listLoginEvents, loginEventCounts, recordLoginEvent } from '../features/activity/activity.repository';
import { listAuditEntries } from '../features/audit/audit.repository';
import { listManagedUsers } from '../features/users/users.repository';

// Migration 2026_11_25_0001: "contains" searches served by trigram indexes on SQLite (pg_trgm on PostgreSQL),
// and the sign-in counts kept by triggers. The searches must answer exactly what the plain LIKE answered, and the
// indexes and counts must follow every insert, update and delete.
describe('searches through trigram indexes, and counts kept as rows are written', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('login_events').execute();
    await t.db.deleteFrom('audit_log').execute();
  });

  const page = { sort: 'timestamp', dir: 'desc', page: 1, pageSize: 50 } as const;
  const emailsFound = async (search: string) =>
    (await listLoginEvents(t.db, { search }, page)).rows.map((row) => row.email).sort();

  it('finds sign-in events whose email contains the text, ignoring case, however short or odd the text', async () => {
    for (const email of ['Alice.Smith@corp.test', 'bob@corp.test', 'a_b%c@x.test', 'quote"d@x.test'])
      await recordLoginEvent(t.db, { email, role: 'trainee', event: 'login', ip: null });
    expect(await emailsFound('SMITH@')).toEqual(['Alice.Smith@corp.test']);
    expect(await emailsFound('corp.test')).toEqual(['Alice.Smith@corp.test', 'bob@corp.test']);
    // Shorter than a trigram: the same answer by scanning.
    expect(await emailsFound('bo')).toEqual(['bob@corp.test']);
    // LIKE's wildcards and FTS5's quote are taken literally.
    expect(await emailsFound('_b%')).toEqual(['a_b%c@x.test']);
    expect(await emailsFound('a_b%c')).toEqual(['a_b%c@x.test']);
    expect(await emailsFound('e"d@')).toEqual(['quote"d@x.test']);
    expect(await emailsFound('nobody')).toEqual([]);
  });

  it('answers a search matching more emails than it reads one by one exactly as one matching few', async () => {
    for (let index = 0; index < 205; index += 1)
      await recordLoginEvent(t.db, { email: `many-${index}@wide.test`, role: 'trainee', event: 'login', ip: null });
    await recordLoginEvent(t.db, { email: 'other@corp.test', role: 'trainee', event: 'login', ip: null });
    const wide = await listLoginEvents(t.db, { search: 'WIDE.test' }, { ...page, pageSize: 10 });
    expect(wide.rows).toHaveLength(10);
    expect(wide.total).toBe(205);
    expect(wide.rows.every((row) => row.email.endsWith('@wide.test'))).toBe(true);
    expect(await emailsFound('many-204@')).toEqual(['many-204@wide.test']);
  });

  it('counts events written and deleted many in one statement, and keeps each new email once', async () => {
    const at = new Date().toISOString();
    const event = (email: string, kind: 'login' | 'failed_login') => ({
      email,
      role: 'trainee',
      event: kind,
      ip: null,
      at,
    });
    await t.db
      .insertInto('login_events')
      .values([
        event('bulk-a@corp.test', 'login'),
        event('bulk-a@corp.test', 'failed_login'),
        event('bulk-b@corp.test', 'failed_login'),
      ])
      .execute();
    const dayStart = new Date(Date.now() - 3_600_000).toISOString();
    expect(await loginEventCounts(t.db, dayStart)).toMatchObject({ total: 3, failedLogins: 2, loginsToday: 1 });
    expect(
      (await t.db.selectFrom('login_emails').select('email').where('email', 'like', 'bulk-%').execute())
        .map((row) => row.email)
        .sort(),
    ).toEqual(['bulk-a@corp.test', 'bulk-b@corp.test']);
    await t.db.deleteFrom('login_events').where('event', '=', 'failed_login').execute();
    expect(await loginEventCounts(t.db, dayStart)).toMatchObject({ total: 1, failedLogins: 0, loginsToday: 1 });
  });

  it('forgets deleted events in the search and in the counts', async () => {
    await recordLoginEvent(t.db, { email: 'gone@corp.test', role: 'trainee', event: 'failed_login', ip: null });
    await recordLoginEvent(t.db, { email: 'kept@corp.test', role: 'trainee', event: 'login', ip: null });
    const dayStart = new Date(Date.now() - 3_600_000).toISOString();
    expect(await loginEventCounts(t.db, dayStart)).toMatchObject({ total: 2, failedLogins: 1, loginsToday: 1 });
    await t.db.deleteFrom('login_events').where('email', '=', 'gone@corp.test').execute();
    expect(await emailsFound('corp.test')).toEqual(['kept@corp.test']);
    expect(await loginEventCounts(t.db, dayStart)).toMatchObject({ total: 1, failedLogins: 0, loginsToday: 1 });
  });

  it("follows a person's renamed name and changed email in the users search", async () => {
    const user = await t.createUser({ first_name: 'Oldname', last_name: 'Person', email: 'first@corp.test' });
    const found = async (search: string) =>
      (await listManagedUsers(t.db, { search, sort: 'name', dir: 'asc', page: 1, pageSize: 25 })).items.map(
        (row) => row.id,
      );
    expect(await found('oldname pers')).toEqual([user.id]);
    await t.db
      .updateTable('users')
      .set({ first_name: 'Newname', email: 'second@corp.test' })
      .where('id', '=', user.id)
      .execute();
    expect(await found('oldname')).toEqual([]);
    expect(await found('first@corp')).toEqual([]);
    expect(await found('NEWNAME person')).toEqual([user.id]);
    expect(await found('second@corp')).toEqual([user.id]);
  });

  it('finds a person by a text in any one of the name, email and designation, quotes included', async () => {
    const byName = await t.createUser({ first_name: 'Quill "Q"', last_name: 'Analyst', email: 'q1@corp.test' });
    const byEmail = await t.createUser({ first_name: 'Ada', last_name: 'Byron', email: 'quill-q@corp.test' });
    const byRole = await t.createUser({
      first_name: 'Bo',
      last_name: 'Lee',
      email: 'b@corp.test',
      designation: 'Quill lead',
    });
    const found = async (search: string) =>
      (await listManagedUsers(t.db, { search, sort: 'email', dir: 'asc', page: 1, pageSize: 25 })).items
        .map((row) => row.id)
        .sort();
    expect(await found('quill')).toEqual([byName.id, byEmail.id, byRole.id].sort());
    expect(await found('Quill "Q"')).toEqual([byName.id]);
    expect(await found('quill-q@')).toEqual([byEmail.id]);
    expect(await found('quill lead')).toEqual([byRole.id]);
  });

  it('searches each audit column on its own', async () => {
    await t.db
      .insertInto('audit_log')
      .values([
        {
          actor: 'lead@corp.test',
          action: 'upload scenario',
          details: 'variant 12 of the phishing case',
          screen: 'Upload',
          at: '2026-11-25T10:00:00.000Z',
        },
        {
          actor: 'other@corp.test',
          action: 'variant',
          details: 'nothing here',
          screen: 'Users',
          at: '2026-11-25T10:01:00.000Z',
        },
      ])
      .execute();
    const audit = async (filters: Record<string, string>) =>
      (await listAuditEntries(t.db, filters, { sort: 'timestamp', dir: 'asc', page: 1, pageSize: 10 })).rows.map(
        (row) => row.actor,
      );
    expect(await audit({ details: 'VARIANT 12' })).toEqual(['lead@corp.test']);
    expect(await audit({ action: 'variant' })).toEqual(['other@corp.test']);
    expect(await audit({ details: 'variant', actor: 'other' })).toEqual([]);
  });
});
