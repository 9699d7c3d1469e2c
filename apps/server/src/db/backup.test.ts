import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from './sqlite-driver';
import { afterAll, describe, expect, it } from 'vitest';
import { backupSqlite } from './backup';
import { migrateToLatest, openDatabase } from './database';

// SQLite only by nature (PostgreSQL is backed up with pg_dump), so this test makes its own file on either run.
describe('online SQLite backup', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-backup-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('copies a database that is being written to, whole and consistent', async () => {
    const source = path.join(dir, 'live.db');
    const { db } = openDatabase({ sqliteFile: source });
    await migrateToLatest(db);
    const now = new Date().toISOString();
    const write = (index: number) =>
      db
        .insertInto('audit_log')
        .values({ actor: 'admin@x.test', action: 'Test', details: `row ${index}`, screen: 'Test', at: now })
        .execute();
    for (let index = 0; index < 200; index += 1) await write(index);
    // Writes go on while the backup runs.
    let written = 200;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await write(written++);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const result = await backupSqlite(source, path.join(dir, 'copy.db'));
    writing = false;
    await writer;
    await db.destroy();

    const copy = new SQLite(result.file, { readonly: true });
    const { count } = copy.prepare('select count(*) as count from audit_log').get() as { count: number };
    copy.close();
    expect(count).toBeGreaterThanOrEqual(200);
    expect(count).toBeLessThanOrEqual(written);
    expect(result.bytes).toBeGreaterThan(0);
  });

  it('refuses to overwrite an existing file', async () => {
    const existing = path.join(dir, 'existing.db');
    fs.writeFileSync(existing, 'keep me');
    await expect(backupSqlite(path.join(dir, 'live.db'), existing)).rejects.toThrow(/exists already/);
    expect(fs.readFileSync(existing, 'utf8')).toBe('keep me');
  });
});
