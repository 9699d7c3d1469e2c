// Seeds a database with many users and sign-in events, for benchmarks and for trying the admin screens at
// scale: `npm run seed -- --users 10000 --events 1000000`. Uses the same DATA_DIR / DATABASE_URL as the server.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../src/config';
import { withSecondaryIndexesRebuilt } from '../src/db/bulk-load';
import { migrateToLatest, openDatabase, type Db } from '../src/db/database';
import type { LoginEventsTable, NewUser } from '../src/db/schema';
import { hashPassword } from '../src/features/auth/passwords';

export const SEED_PASSWORD = 'Seed!User1';
const SEED_DOMAIN = 'seed.tradecraft.test';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per INSERT: 1,000 rows of 6 values stays under both databases' bound-parameter limits. */
const ROWS_PER_INSERT = 1000;
/** Rows per transaction: big enough that commits do not dominate, small enough to show progress. */
const ROWS_PER_TRANSACTION = 50_000;

const FIRST_NAMES = [
  'Ada',
  'Bo',
  'Chen',
  'Dana',
  'Eli',
  'Farah',
  'Gus',
  'Hana',
  'Ivan',
  'Jo',
  'Kemal',
  'Lena',
  'Mo',
  'Nia',
  'Omar',
  'Priya',
];
const LAST_NAMES = [
  'Achebe',
  'Berg',
  'Costa',
  'Diaz',
  'Eze',
  'Fischer',
  'Gupta',
  'Haas',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lund',
  'Moreau',
  'Novak',
];
const DESIGNATIONS = [
  'SOC Analyst',
  'Threat Hunter',
  'CTI Analyst',
  'Incident Responder',
  'SOC Lead',
  'Detection Engineer',
  '',
];

/** A small deterministic generator, so two seeds with the same flags produce the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

interface SeededAccount {
  email: string;
  role: NewUser['role'];
}

async function seedUsers(db: Db, count: number, next: () => number): Promise<SeededAccount[]> {
  const passwordHash = await hashPassword(SEED_PASSWORD); // one hash for all: argon2 is slow on purpose
  const now = Date.now();
  const accounts: SeededAccount[] = [];
  for (let start = 0; start < count; start += ROWS_PER_TRANSACTION) {
    const end = Math.min(start + ROWS_PER_TRANSACTION, count);
    await db.transaction().execute(async (trx) => {
      for (let batchStart = start; batchStart < end; batchStart += ROWS_PER_INSERT) {
        const batch: NewUser[] = [];
        for (let index = batchStart; index < Math.min(batchStart + ROWS_PER_INSERT, end); index += 1) {
          const roll = next();
          const role: NewUser['role'] = roll < 0.02 ? 'admin' : roll < 0.07 ? 'pending' : 'student';
          const createdAt = new Date(now - Math.floor(next() * 365 * DAY_MS)).toISOString();
          const email = `seed-${String(index + 1).padStart(6, '0')}@${SEED_DOMAIN}`;
          batch.push({
            id: randomUUID(),
            email,
            password_hash: passwordHash,
            first_name: pick(next, FIRST_NAMES),
            last_name: pick(next, LAST_NAMES),
            designation: pick(next, DESIGNATIONS),
            role,
            disabled: role !== 'pending' && next() < 0.03 ? 1 : 0,
            failed_attempts: 0,
            photo_file_id: null,
            created_at: createdAt,
            updated_at: createdAt,
          });
          accounts.push({ email, role });
        }
        await trx
          .insertInto('users')
          .values(batch)
          .onConflict((oc) => oc.column('email').doNothing())
          .execute();
      }
    });
  }
  return accounts;
}

async function seedEvents(db: Db, count: number, accounts: SeededAccount[], next: () => number): Promise<void> {
  const signers = accounts.filter((account) => account.role !== 'pending');
  if (signers.length === 0 && count > 0)
    throw new Error('--events needs at least one approved seeded user (--users > 0)');
  const now = Date.now();
  // Timestamps rise with the insert order (as real sign-ins do), so the (at, id) index grows at its end.
  const spanMs = 365 * DAY_MS;
  const startMs = now - spanMs;
  let written = 0;
  for (let start = 0; start < count; start += ROWS_PER_TRANSACTION) {
    const end = Math.min(start + ROWS_PER_TRANSACTION, count);
    await db.transaction().execute(async (trx) => {
      for (let batchStart = start; batchStart < end; batchStart += ROWS_PER_INSERT) {
        const batch: Omit<LoginEventsTable, 'id'>[] = [];
        for (let index = batchStart; index < Math.min(batchStart + ROWS_PER_INSERT, end); index += 1) {
          const roll = next();
          const event: LoginEventsTable['event'] =
            roll < 0.45 ? 'login' : roll < 0.85 ? 'logout' : roll < 0.97 ? 'failed_login' : 'password_change';
          const account = pick(next, signers);
          batch.push({
            email: account.email,
            role: account.role,
            event,
            ip: `10.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}`,
            at: new Date(startMs + Math.floor(((index + next()) / count) * spanMs)).toISOString(),
          });
        }
        await trx.insertInto('login_events').values(batch).execute();
      }
    });
    written = end;
    if (process.stdout.isTTY)
      process.stdout.write(`\r  login events: ${written.toLocaleString('en')} / ${count.toLocaleString('en')}`);
  }
  if (count > 0 && process.stdout.isTTY) process.stdout.write('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '10000' },
      events: { type: 'string', default: '1000000' },
      seed: { type: 'string', default: '1' },
    },
  });
  const users = Number(values.users);
  const events = Number(values.events);
  if (!Number.isInteger(users) || users < 0 || !Number.isInteger(events) || events < 0) {
    throw new Error('--users and --events must be whole numbers, 0 or more');
  }
  const config = loadConfig();
  const { db, dialect, location } = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    if (dialect === 'sqlite') {
      // A bigger page cache for this one connection: the indexes of a million rows stay in memory while written.
      await sql`pragma cache_size = -262144`.execute(db);
    }
    console.log(
      `Seeding ${dialect} at ${location}: ${users.toLocaleString('en')} users, ${events.toLocaleString('en')} login events`,
    );
    const next = random(Number(values.seed));
    const started = performance.now();
    // Written with the tables' secondary indexes dropped, each built again afterwards in one pass.
    const accounts = await withSecondaryIndexesRebuilt(db, ['users'], () => seedUsers(db, users, next));
    const usersDone = performance.now();
    console.log(
      `  users: ${accounts.length.toLocaleString('en')} in ${((usersDone - started) / 1000).toFixed(1)} s (password ${SEED_PASSWORD})`,
    );
    await withSecondaryIndexesRebuilt(db, ['login_events', 'login_emails'], () =>
      seedEvents(db, events, accounts, next),
    );
    const eventsDone = performance.now();
    console.log(
      `  login events in ${((eventsDone - usersDone) / 1000).toFixed(1)} s; total ${((eventsDone - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
