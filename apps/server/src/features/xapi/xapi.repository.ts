import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import type { XapiOutboxTable } from '../../db/schema';

export type OutboxRow = Selectable<XapiOutboxTable>;

export interface NewOutboxStatement {
  id: string;
  run_id: string;
  seq: number;
  statement: string;
  created_at: string;
}

/** Writes statements to the outbox, due at once (in the transaction of what they report). */
export async function insertStatements(db: DbOrTrx, rows: NewOutboxStatement[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('xapi_outbox')
    .values(rows.map((row) => ({ ...row, next_attempt_at: row.created_at, attempts: 0 })))
    .execute();
}

/**
 * The head of the queue: statements neither sent nor refused, in the order they happened, up to the first one
 * whose time has not come (backing off, or claimed by another sender). Nothing overtakes a statement that waits,
 * so the LRS stores a run's statements in the order they happened.
 */
export async function listDueStatements(db: DbOrTrx, now: string, limit: number): Promise<OutboxRow[]> {
  const waiting = await db
    .selectFrom('xapi_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('rejected_at', 'is', null)
    .orderBy('created_at')
    .orderBy('seq')
    .limit(limit)
    .execute();
  const blocked = waiting.findIndex((row) => row.next_attempt_at > now);
  return blocked < 0 ? waiting : waiting.slice(0, blocked);
}

/**
 * Takes the statements for this sender by moving each one's `next_attempt_at` to `leaseUntil`, but only where it is
 * still what was read: a statement another process claimed in between is left to it. Returns the ids taken.
 */
export async function claimStatements(
  db: DbOrTrx,
  rows: Pick<OutboxRow, 'id' | 'next_attempt_at'>[],
  leaseUntil: string,
): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (const row of rows) {
    const result = await db
      .updateTable('xapi_outbox')
      .set({ next_attempt_at: leaseUntil })
      .where('id', '=', row.id)
      .where('next_attempt_at', '=', row.next_attempt_at)
      .where('sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) claimed.add(row.id);
  }
  return claimed;
}

export async function markSent(db: DbOrTrx, ids: string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('xapi_outbox').set({ sent_at: at }).where('id', 'in', ids).execute();
}

/** A failed attempt: counted, its error kept, and the next one put off until `retryAt`. */
export async function markFailed(
  db: DbOrTrx,
  rows: { id: string; attempts: number; retryAt: string }[],
  error: { message: string; at: string },
): Promise<void> {
  for (const row of rows) {
    await db
      .updateTable('xapi_outbox')
      .set({ attempts: row.attempts, next_attempt_at: row.retryAt, last_error: error.message, last_error_at: error.at })
      .where('id', '=', row.id)
      .execute();
  }
}

/** The LRS refused this statement for good (a malformed statement, or its id taken by another): never tried again. */
export async function markRejected(db: DbOrTrx, id: string, error: { message: string; at: string }): Promise<void> {
  await db
    .updateTable('xapi_outbox')
    .set({ rejected_at: error.at, last_error: error.message, last_error_at: error.at })
    .where('id', '=', id)
    .execute();
}

/** Deletes statements delivered before `before`, at most `limit` of them, and says how many went. */
export async function purgeSent(db: DbOrTrx, before: string, limit: number): Promise<number> {
  const old = await db
    .selectFrom('xapi_outbox')
    .select('id')
    .where('sent_at', 'is not', null)
    .where('sent_at', '<', before)
    .limit(limit)
    .execute();
  if (old.length === 0) return 0;
  await db
    .deleteFrom('xapi_outbox')
    .where(
      'id',
      'in',
      old.map((row) => row.id),
    )
    .execute();
  return old.length;
}

export interface OutboxFigures {
  backlog: number;
  rejected: number;
  oldestWaitingSince: string | null;
  lastDeliveredAt: string | null;
  lastError: { message: string; at: string } | null;
}

/**
 * What the admin dashboard shows of the outbox. Each figure is read through an index (the waiting statements,
 * `sent_at`, `rejected_at`, `last_error_at`), so its cost follows the backlog, not the week of delivered rows.
 */
export async function outboxFigures(db: DbOrTrx): Promise<OutboxFigures> {
  const [waiting, rejected, delivered, lastError] = await Promise.all([
    db
      .selectFrom('xapi_outbox')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
      .where('sent_at', 'is', null)
      .where('rejected_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('xapi_outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('rejected_at', 'is not', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('xapi_outbox')
      .select('sent_at')
      .where('sent_at', 'is not', null)
      .orderBy('sent_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('xapi_outbox')
      .select(['last_error', 'last_error_at'])
      .where('last_error_at', 'is not', null)
      .orderBy('last_error_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    backlog: Number(waiting.count),
    rejected: Number(rejected.count),
    oldestWaitingSince: (waiting.oldest as string | null) ?? null,
    lastDeliveredAt: delivered?.sent_at ?? null,
    lastError:
      lastError?.last_error && lastError.last_error_at
        ? { message: lastError.last_error, at: lastError.last_error_at }
        : null,
  };
}

/** Every statement the outbox holds for a run, in order (tests and the operations CLI read it). */
export async function listRunStatements(db: DbOrTrx, runId: string): Promise<OutboxRow[]> {
  return db.selectFrom('xapi_outbox').selectAll().where('run_id', '=', runId).orderBy('seq').execute();
}
