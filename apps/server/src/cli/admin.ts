// Account recovery from the command line, on the same DATA_DIR / DATABASE_URL as the server, whether the
// server runs or not:
//   npm run admin -- unlock <email>            re-enable the account and lift its sign-in lock
//   npm run admin -- reset-password <email>    set a new password (read from stdin when piped, else
//                                              generated and printed), re-enable, unlock, end its sessions
// Both are written to the audit log.
import { ConfigError, loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db/database';
import { AccountRecoveryError, resetPassword, unlockAccount } from '../bootstrap';

const USAGE =
  'usage: npm run admin -- unlock <email>\n       npm run admin -- reset-password <email>   (a new password may be piped on stdin)';

/** The first line piped on stdin, or undefined when stdin is a terminal or empty. */
async function passwordFromStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  return line === '' ? undefined : line;
}

async function main(): Promise<number> {
  const [command, email, ...rest] = process.argv.slice(2);
  if (!email || rest.length > 0 || (command !== 'unlock' && command !== 'reset-password')) {
    console.error(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const { db } = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    if (command === 'unlock') {
      await unlockAccount(db, email);
      console.log(`${email}: enabled and unlocked.`);
    } else {
      const { generatedPassword } = await resetPassword(db, email, await passwordFromStdin());
      console.log(`${email}: password set, account enabled and unlocked, its sessions ended.`);
      if (generatedPassword)
        console.log(`  new password: ${generatedPassword}\n  Sign in and change it under Settings.`);
    }
    return 0;
  } catch (error) {
    if (error instanceof AccountRecoveryError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
