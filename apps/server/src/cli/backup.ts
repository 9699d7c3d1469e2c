// `npm run backup -- <file>`: an online backup of the SQLite database (the server may keep running).
// PostgreSQL deployments use pg_dump instead (docs/operations.md).
import { loadConfig } from '../config';
import { backupSqlite } from '../db/backup';
import { sqliteFileIn } from '../db/database';

async function main(): Promise<void> {
  const destination = process.argv[2];
  if (!destination || destination.startsWith('-')) {
    console.error(
      'Usage: npm run backup -- <file>   (for example: npm run backup -- backups/tradecraft-2026-11-23.db)',
    );
    process.exit(2);
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump, e.g.\n  pg_dump --format=custom --file=tradecraft.dump "$DATABASE_URL"',
    );
    process.exit(2);
  }
  const result = await backupSqlite(sqliteFileIn(config.dataDir), destination);
  console.log(
    `Backed up ${result.pages} pages (${(result.bytes / 1024 / 1024).toFixed(1)} MiB) to ${result.file}; integrity check ok.`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
