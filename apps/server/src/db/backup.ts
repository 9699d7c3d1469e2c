import fs from 'node:fs';
import path from 'node:path';
import SQLite from './sqlite-driver';

export interface BackupResult {
  file: string;
  bytes: number;
  pages: number;
}

/**
 * Copies a live SQLite database into `destination` while the server goes on reading and writing: `VACUUM INTO`
 * writes one consistent snapshot inside a single read transaction (WAL included), so, unlike the page-by-page
 * backup API, it never starts over when another connection writes. Refuses to overwrite a file.
 */
function copyPageCount(file: string): number {
  const copy = new SQLite(file, { readonly: true });
  try {
    return copy.pragma('page_count', { simple: true }) as number;
  } finally {
    copy.close();
  }
}

export async function backupSqlite(source: string, destination: string): Promise<BackupResult> {
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}.`);
  const target = path.resolve(destination);
  if (fs.existsSync(target)) throw new Error(`${target} exists already; choose a new file name.`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const database = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    database.prepare('VACUUM INTO ?').run(target);
    const copy = new SQLite(target, { readonly: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`The backup failed its integrity check: ${String(check)}`);
    } finally {
      copy.close();
    }
    const pages = Number(copyPageCount(target));
    return { file: target, bytes: fs.statSync(target).size, pages };
  } finally {
    database.close();
  }
}
