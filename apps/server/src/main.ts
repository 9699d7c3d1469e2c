import v8 from 'node:v8';
import { buildApp } from './app';
import { ensureAdmin } from './bootstrap';
import { ConfigError, loadConfig, type Config } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { deleteExpiredRateLimits } from './features/auth/rate-limit';
import { deleteExpiredSessions } from './plugins/sessions.repository';
import { loadBuiltinScenarios } from './features/scenarios/scenarios.loader';

const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/**
 * How far the old generation may grow past what the last full collection kept before the next one (percent).
 * V8's own factor lets a server that keeps about 40 MB live grow to three or four times that between full
 * collections under load; docs/operations.md ("Memory").
 */
const HEAP_GROWING_PERCENT = 25;

async function main(): Promise<void> {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const logger = {
    level: config.logLevel,
    // Pretty lines for a person at a terminal; JSON lines for everything else (files, log shippers).
    ...(process.stdout.isTTY
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } } }
      : {}),
  };

  const { db, dialect, location } = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, db, dialect, logger });
  try {
    const applied = await migrateToLatest(db);
    app.log.info({ dialect, location, applied }, 'database ready');
    const library = await loadBuiltinScenarios(db, undefined, app.log);
    app.log.info(
      {
        loaded: library.loaded,
        inserted: library.inserted.length,
        updated: library.updated.length,
        skipped: library.skipped.length,
      },
      `built-in scenarios: ${library.loaded} loaded`,
    );
    const admin = await ensureAdmin(db, { email: config.adminEmail, password: config.adminPassword });
    if (admin?.generatedPassword) {
      // Printed once, straight to the console rather than the log, so it does not end up in log files.
      console.log(
        `\n  First start: an admin account was created.\n    email:    ${admin.email}\n    password: ${admin.generatedPassword}\n  It works once: signing in with it asks for a password of your own.\n`,
      );
    } else if (admin) {
      app.log.info({ email: admin.email }, `admin account ${admin.action} from ADMIN_EMAIL and ADMIN_PASSWORD`);
    }
  } catch (error) {
    app.log.fatal({ err: error }, 'start-up failed');
    await db.destroy();
    process.exit(1);
  }

  const housekeeping = setInterval(() => {
    Promise.all([deleteExpiredSessions(db), deleteExpiredRateLimits(db)]).catch((error: unknown) =>
      app.log.warn({ err: error }, 'housekeeping failed'),
    );
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    clearInterval(housekeeping);
    await app.close(); // waits for in-flight requests
    await db.destroy();
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // A class of trainees signing in at once opens hundreds of connections together: Node's default listen queue
  // (511) drops the rest, and their browsers wait seconds to retry. The kernel caps it at net.core.somaxconn.
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  console.log(`  Tradecraft is running at ${config.publicOrigin}\n`);
}

const LISTEN_BACKLOG = 4096;

void main();
