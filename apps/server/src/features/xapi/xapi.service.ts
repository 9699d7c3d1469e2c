import type { FastifyBaseLogger } from 'fastify';
import type { XapiStatusResponse } from '@tradecraft/shared';
import type { XapiConfig } from '../../config';
import type { Db, DbOrTrx } from '../../db/database';
import { DeliveryLoop } from '../../plugins/delivery-loop';
import type { RunJournalEntry } from '../../plugins/run-journal';
import { statementsOf, type StatementSettings } from './xapi-statements';
import {
  claimStatements,
  insertStatements,
  listDueStatements,
  markFailed,
  markRejected,
  markSent,
  outboxFigures,
  purgeSent,
  type OutboxRow,
} from './xapi.repository';

// xAPI delivery (docs/interoperability.md, "xAPI"): statements are written to the outbox in the transaction of
// what they report (plugins/run-journal.ts), then sent here in batches, retried with backoff while the LRS is
// away, and never lost by a restart: the outbox is the only queue.

/** Statements one request carries. */
export const BATCH_SIZE = 50;
/** How long a claimed batch is this sender's before another process may take it (a crash mid-send). */
const LEASE_MS = 60_000;
/** The first retry waits this long; each failure doubles it, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 15 * 60_000;
/** How often the sender looks for due statements when nothing told it of new ones. */
const POLL_MS = 5_000;
/** Delivered statements stay this long for the dashboard's "last delivered", then go. */
const KEEP_SENT_MS = 7 * 24 * 60 * 60_000;
const REQUEST_TIMEOUT_MS = 15_000;

/** The wait before the next attempt after `attempts` failed ones. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

/** The journal writer: builds the entry's statements and writes them in the caller's transaction. */
export function outboxWriter(settings: StatementSettings) {
  return async (db: DbOrTrx, entry: RunJournalEntry): Promise<void> => {
    const statements = statementsOf(settings, entry);
    await insertStatements(
      db,
      statements.map((statement, seq) => ({
        id: statement.id,
        run_id: entry.run.id,
        seq,
        statement: JSON.stringify(statement),
        created_at: entry.at,
      })),
    );
  };
}

type Outcome =
  | { kind: 'sent' }
  /** The LRS refused the content: a batch is split, a single statement is refused for good. */
  | { kind: 'refused'; message: string }
  /** The LRS is away, overloaded or refuses our credentials: try again later. */
  | { kind: 'failed'; message: string };

/** Why a request never got an answer: the system's error code (ECONNREFUSED, ENOTFOUND), or a time-out. */
function networkReason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer in ${REQUEST_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: string; errors?: { code?: string }[]; message?: string } }).cause;
  return cause?.code ?? cause?.errors?.find((inner) => inner.code)?.code ?? cause?.message ?? String(error);
}

/** Sends the outbox to the LRS. One per server process; several processes share the outbox through leases. */
export class XapiDelivery {
  private readonly loop: DeliveryLoop;

  constructor(
    private readonly db: Db,
    private readonly config: XapiConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    const onError = (error: unknown) => this.log.error({ err: error }, 'xAPI delivery failed');
    this.loop = new DeliveryLoop((now) => this.deliverPass(now), onError, POLL_MS);
  }

  start(): void {
    this.loop.start();
  }

  /** New statements were written: send them shortly (after the transaction that wrote them has committed). */
  soon(): void {
    this.loop.soon();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Sends every statement due by `now`, a batch at a time, until none is due or the LRS fails; returns how many
   * this pass delivered (plugins/delivery-loop.ts runs one pass at a time). Tests call it with a later `now` to
   * step over a backoff.
   */
  deliverDue(now: Date = new Date()): Promise<number> {
    return this.loop.deliverDue(now);
  }

  private async deliverPass(now: Date): Promise<number> {
    let delivered = 0;
    for (;;) {
      const due = await listDueStatements(this.db, now.toISOString(), BATCH_SIZE);
      if (due.length === 0) break;
      const claimed = await claimStatements(this.db, due, new Date(now.getTime() + LEASE_MS).toISOString());
      const batch = due.filter((row) => claimed.has(row.id));
      if (batch.length === 0) continue;
      const { sent, failed } = await this.sendBatch(batch, now);
      delivered += sent;
      if (failed) break;
    }
    await purgeSent(this.db, new Date(now.getTime() - KEEP_SENT_MS).toISOString(), 500);
    return delivered;
  }

  /** Sends one claimed batch; a batch the LRS refuses is sent again one statement at a time. */
  private async sendBatch(batch: OutboxRow[], now: Date): Promise<{ sent: number; failed: boolean }> {
    const outcome = await this.post(batch);
    const at = new Date().toISOString();
    if (outcome.kind === 'sent') {
      await markSent(
        this.db,
        batch.map((row) => row.id),
        at,
      );
      return { sent: batch.length, failed: false };
    }
    if (outcome.kind === 'refused' && batch.length > 1) {
      let sent = 0;
      for (const row of batch) {
        const one = await this.sendBatch([row], now);
        sent += one.sent;
        if (one.failed) return { sent, failed: true };
      }
      return { sent, failed: false };
    }
    if (outcome.kind === 'refused') {
      this.log.warn({ statementId: batch[0]!.id, reason: outcome.message }, 'the LRS refused an xAPI statement');
      await markRejected(this.db, batch[0]!.id, { message: outcome.message, at });
      return { sent: 0, failed: false };
    }
    this.log.warn({ reason: outcome.message, statements: batch.length }, 'xAPI statements could not be sent');
    await markFailed(
      this.db,
      batch.map((row) => ({
        id: row.id,
        attempts: row.attempts + 1,
        retryAt: new Date(now.getTime() + backoffMs(row.attempts + 1)).toISOString(),
      })),
      { message: outcome.message, at },
    );
    return { sent: 0, failed: true };
  }

  private async post(batch: OutboxRow[]): Promise<Outcome> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-experience-api-version': '1.0.3',
    };
    if (this.config.username !== undefined || this.config.password !== undefined) {
      const pair = `${this.config.username ?? ''}:${this.config.password ?? ''}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    let response: Response;
    try {
      response = await fetch(`${this.config.endpoint}/statements`, {
        method: 'POST',
        headers,
        body: `[${batch.map((row) => row.statement).join(',')}]`,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      return { kind: 'failed', message: `The LRS could not be reached (${networkReason(error)}).` };
    }
    const body = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 300);
    if (response.ok) return { kind: 'sent' };
    const answered = `The LRS answered ${response.status}${body ? `: ${body}` : ''}`;
    // 400: a statement it will never take; 409: a statement id it holds with other content; 413: too large.
    if ([400, 409, 413].includes(response.status)) return { kind: 'refused', message: answered };
    return { kind: 'failed', message: answered };
  }
}

/** What the admin dashboard shows: whether xAPI is on, where it sends, and how the outbox stands. */
export async function xapiStatus(db: Db, config: XapiConfig | null): Promise<XapiStatusResponse> {
  if (!config) {
    return {
      enabled: false,
      endpoint: null,
      backlog: 0,
      rejected: 0,
      oldestWaitingSince: null,
      lastDeliveredAt: null,
      lastError: null,
    };
  }
  return { enabled: true, endpoint: config.endpoint, ...(await outboxFigures(db)) };
}
