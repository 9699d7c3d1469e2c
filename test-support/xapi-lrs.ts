// A real Learning Record Store for the xAPI tests: Learning Locker's statement service (`xapi-statements` on the
// npm registry) run from node_modules in a child process on 127.0.0.1, as its README runs it without Mongo or
// Redis: in-memory models, local storage, the test auth and event repos. Everything else is its default. It can be
// stopped and started again on the same port (a test plays part of a run while it is down); its memory does not
// outlive a stop, so a test reads statements back before stopping it.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const SERVER = require.resolve('xapi-statements/dist/server.js');
const LOOPBACK_ONLY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loopback-only.mjs');

export interface TestLrs {
  /** The xAPI base address, as XAPI_ENDPOINT takes it. */
  endpoint: string;
  username: string;
  password: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Every statement the LRS holds for a registration (a run), oldest stored first. */
  statementsOf(registration: string): Promise<Record<string, unknown>[]>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** An LRS on a port of its own, not yet started. */
export async function createLrs(): Promise<TestLrs> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const username = 'tradecraft';
  const password = 'lrs-secret-for-tests';
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  let child: ChildProcess | undefined;

  return {
    endpoint: `${origin}/xAPI`,
    username,
    password,
    async start() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-lrs-'));
      child = fork(SERVER, [], {
        cwd: dir,
        execArgv: ['--import', pathToFileURL(LOOPBACK_ONLY).href],
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        env: {
          PATH: process.env.PATH,
          EXPRESS_PORT: String(port),
          AUTH_REPO: 'test',
          EVENTS_REPO: 'test',
          MODELS_REPO: 'memory',
          STORAGE_REPO: 'local',
          FS_LOCAL_STORAGE_DIR: path.join(dir, 'storage'),
          EXPRESS_MORGAN_DIRECTORY: path.join(dir, 'access-logs'),
          WINSTON_CONSOLE_LEVEL: 'error',
        },
      });
      const started = child;
      await new Promise<void>((resolve, reject) => {
        started.on('message', (message) => message === 'ready' && resolve());
        started.once('exit', (code) => reject(new Error(`the LRS exited (${code}) before it was ready`)));
      });
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      await exited;
    },
    async statementsOf(registration) {
      const statements: Record<string, unknown>[] = [];
      let next: string | null = `/xAPI/statements?registration=${registration}&ascending=true&limit=100`;
      while (next) {
        const response = await fetch(`${origin}${next}`, {
          headers: { authorization, 'x-experience-api-version': '1.0.3' },
        });
        if (!response.ok) throw new Error(`the LRS answered ${response.status}: ${await response.text()}`);
        const page = (await response.json()) as { statements: Record<string, unknown>[]; more?: string };
        statements.push(...page.statements);
        next = page.more ? page.more : null;
      }
      return statements;
    },
  };
}
