import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { PostgresAdapter } from 'kysely';
import pg from 'pg';
import type { Db } from '../../db/database';
import { publishOnChannel } from './notifications.repository';

/**
 * The PostgreSQL channel every server process LISTENs on. A payload is `{"r":[recipient ids]}` (they have
 * something new) or `{"s":[user ids]}` (some of their sessions ended: their streams check themselves now).
 */
export const NOTIFY_CHANNEL = 'tradecraft_notifications';
/** pg_notify payloads must stay under 8000 bytes: 100 UUIDs are about 4 KB. */
const IDS_PER_NOTIFY = 100;
const RECONNECT_MS = { first: 500, max: 30_000 };

type Listener = () => void;

const sessionsEvent = (userId: string) => `sessions:${userId}`;

/**
 * Tells open notification streams of this process that their user has something new. On SQLite (one
 * process) an in-process emitter is the whole story; on PostgreSQL a dedicated connection LISTENs, so an
 * insert in any server process reaches the streams of every process.
 */
export class NotificationHub {
  private readonly emitter = new EventEmitter();
  private client: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelay = RECONNECT_MS.first;
  private closed = false;
  /** True while a LISTEN connection is up: then this process hears its own notifications through it. */
  listening = false;

  constructor(
    private readonly databaseUrl: string | undefined,
    private readonly log: FastifyBaseLogger,
  ) {
    this.emitter.setMaxListeners(0); // one listener per open stream
  }

  subscribe(userId: string, listener: Listener): () => void {
    this.emitter.on(userId, listener);
    return () => this.emitter.off(userId, listener);
  }

  /** Called when some session of the user may have ended (sign-out, disable, lock, password change). */
  watchSessions(userId: string, listener: Listener): () => void {
    const event = sessionsEvent(userId);
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  deliver(recipientIds: readonly string[]): void {
    for (const id of new Set(recipientIds)) this.emitter.emit(id);
  }

  deliverSessionsEnded(userIds: readonly string[]): void {
    for (const id of new Set(userIds)) this.emitter.emit(sessionsEvent(id));
  }

  /** Starts LISTENing when there is a PostgreSQL URL; resolves once listening (or after a failed first try). */
  async start(): Promise<void> {
    if (!this.databaseUrl) return;
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
      try {
        const { r, s } = JSON.parse(message.payload) as { r?: unknown; s?: unknown };
        if (Array.isArray(r)) this.deliver(r.filter((id): id is string => typeof id === 'string'));
        if (Array.isArray(s)) this.deliverSessionsEnded(s.filter((id): id is string => typeof id === 'string'));
      } catch {
        this.log.warn('ignored a malformed notification payload');
      }
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'notification listener lost its connection; reconnecting');
      this.dropClient(client);
    });
    client.on('end', () => this.dropClient(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.listening = true;
      this.reconnectDelay = RECONNECT_MS.first;
    } catch (error) {
      this.log.warn({ err: error }, 'notification listener could not connect; retrying');
      this.dropClient(client);
    }
  }

  private dropClient(client: pg.Client): void {
    if (this.client === client) {
      this.client = null;
      this.listening = false;
    }
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, this.reconnectDelay);
    this.reconnectTimer.unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MS.max);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.emitter.removeAllListeners();
    const client = this.client;
    this.client = null;
    this.listening = false;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}

const hubs = new WeakMap<Db, NotificationHub>();

export function registerHub(db: Db, hub: NotificationHub): void {
  hubs.set(db, hub);
}

export function unregisterHub(db: Db, hub: NotificationHub): void {
  if (hubs.get(db) === hub) hubs.delete(db);
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Call after the transaction that inserted notifications has committed: wakes the recipients' open
 * streams in every server process. Never throws: the rows are saved, and the bell's list is the fallback.
 */
export function notifyRecipients(db: Db, recipientIds: readonly string[]): Promise<void> {
  return broadcast(db, 'r', recipientIds);
}

/**
 * Call after the transaction that ended sessions of these users has committed: their open streams in every
 * process check their session at once and close when it is gone (instead of at the next heartbeat).
 */
export function endStreamsOfEndedSessions(db: Db, userIds: readonly string[]): Promise<void> {
  return broadcast(db, 's', userIds);
}

async function broadcast(db: Db, key: 'r' | 's', ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const hub = hubs.get(db);
  const deliverHere = () => (key === 'r' ? hub?.deliver(ids) : hub?.deliverSessionsEnded(ids));
  try {
    if (isPostgres(db)) {
      for (let start = 0; start < ids.length; start += IDS_PER_NOTIFY) {
        const payload = JSON.stringify({ [key]: ids.slice(start, start + IDS_PER_NOTIFY) });
        await publishOnChannel(db, NOTIFY_CHANNEL, payload);
      }
      // Without a LISTEN connection of its own this process would not hear itself.
      if (hub && !hub.listening) deliverHere();
    } else {
      deliverHere();
    }
  } catch {
    deliverHere();
  }
}
