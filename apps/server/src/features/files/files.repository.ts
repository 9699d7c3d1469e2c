import { createHash, randomUUID } from 'node:crypto';
import { nowIso } from '../../clock';
import type { DbOrTrx } from '../../db/database';

export interface StoredFile {
  id: string;
  purpose: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: string;
}

export interface NewFile {
  purpose: 'profile_photo' | 'scenario_upload';
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** Stores the bytes in the database, so one data file (or one PostgreSQL database) is the whole backup. */
export async function saveFile(db: DbOrTrx, file: NewFile): Promise<StoredFile> {
  const stored: StoredFile = {
    id: randomUUID(),
    purpose: file.purpose,
    filename: file.filename,
    contentType: file.contentType,
    size: file.bytes.length,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    createdAt: nowIso(),
  };
  await db
    .insertInto('files')
    .values({
      id: stored.id,
      purpose: stored.purpose,
      filename: stored.filename,
      content_type: stored.contentType,
      size: stored.size,
      sha256: stored.sha256,
      bytes: file.bytes,
      created_at: stored.createdAt,
    })
    .execute();
  return stored;
}

export async function getFileBytes(
  db: DbOrTrx,
  id: string,
): Promise<{ contentType: string; sha256: string; bytes: Buffer } | undefined> {
  const row = await db
    .selectFrom('files')
    .select(['content_type', 'sha256', 'bytes'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { contentType: row.content_type, sha256: row.sha256, bytes: Buffer.from(row.bytes) } : undefined;
}

export async function deleteFile(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('files').where('id', '=', id).execute();
}
