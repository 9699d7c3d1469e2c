import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ExtraServer {
  baseURL: string;
  /** Its data directory (the SQLite file is `tradecraft.db` there), for a spec that must age a record. */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Another server process from the same production build, with settings of its own (single sign-on, say), on
 * `port` with a throw-away data directory. For the few specs whose settings the shared server must not have.
 */
export async function startExtraServer(port: number, env: Record<string, string>): Promise<ExtraServer> {
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tradecraft-e2e-extra-${port}-`));
  const child: ChildProcess = spawn(process.execPath, ['../apps/server/dist/main.js'], {
    cwd: path.join(import.meta.dirname, '..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: baseURL,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      WEB_DIST_DIR: process.env.WEB_DIST_DIR ?? '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The extra server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('The extra server did not become healthy in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseURL,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
