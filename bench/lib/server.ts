import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, sleep, tempDir } from './env';

export const BENCH_ADMIN = { email: 'admin@bench.test', password: 'Bench!Admin2026' };

export interface RunningServer {
  pid: number;
  url: string;
  port: number;
  logFile: string;
  process: ChildProcess;
  /** Resolves with the exit code (or signal) once the process has gone. */
  exited: Promise<string>;
  /** Milliseconds from spawning the process to its first healthy answer (polled every 20 ms). */
  readyMs: number;
  /** The process's peak resident set (VmHWM) and current (VmRSS), in MiB, from /proc. */
  memory(): { peakMiB: number; rssMiB: number } | null;
  /** SIGKILL: no clean-up, no flushing; what a power cut does to the process (not to the disk). */
  kill(): Promise<void>;
  /** SIGTERM and wait (the product finishes requests in flight and closes the database). */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The script to run with tsx, relative to the repository root. */
  script?: string;
  port: number;
  env: Record<string, string>;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  healthPath?: string;
  timeoutMs?: number;
}

function readStatus(pid: number): { peakMiB: number; rssMiB: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
    return { peakMiB: field('VmHWM'), rssMiB: field('VmRSS') };
  } catch {
    return null;
  }
}

/** The server as `npm start` runs it: the bundle scripts/build-server.mjs writes. */
export const COMPILED_SERVER = 'apps/server/dist/main.js';

let compiled: Promise<void> | null = null;
/** Compiles the server once per benchmark run, so every part measures the code in this checkout. */
function ensureCompiledServer(): Promise<void> {
  compiled ??= (async () => {
    const { buildServer } = (await import(pathToFileURL(path.join(ROOT, 'scripts/build-server.mjs')).href)) as {
      buildServer: () => Promise<void>;
    };
    await buildServer();
  })();
  return compiled;
}

/**
 * Starts a server as its own node process (so the pid is the server itself, not a wrapper) and waits until its
 * health route answers.
 */
export async function startServer({
  script = COMPILED_SERVER,
  port,
  env,
  nodeArgs = [],
  healthPath = '/api/health',
  timeoutMs = 60_000,
}: StartOptions): Promise<RunningServer> {
  const logDir = tempDir('server-log');
  const logFile = path.join(logDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const url = `http://127.0.0.1:${port}`;
  if (script === COMPILED_SERVER) await ensureCompiledServer();
  // The product runs compiled, as `npm start` runs it; TypeScript scripts (the baseline, an older checkout) via tsx.
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : ['--enable-source-maps'];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, script], {
    cwd: ROOT,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: url,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      WEB_DIST_DIR: path.join(logDir, 'no-web'),
      // A simulated trainee starts a new run every second or faster; a person never does.
      RUN_STARTS_PER_MINUTE: '1000000',
      ...env,
    },
  });
  fs.closeSync(out);
  const spawnedAt = performance.now();
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? String(code)));
  });
  let gone: string | null = null;
  void exited.then((how) => (gone = how));

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone !== null) {
      throw new Error(
        `server ${script} exited (${gone}) before it was ready:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`,
      );
    }
    try {
      const response = await fetch(`${url}${healthPath}`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `server ${script} was not ready after ${timeoutMs} ms:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`,
      );
    }
    await sleep(20);
  }
  const readyMs = performance.now() - spawnedAt;

  const pid = child.pid!;
  return {
    pid,
    url,
    port,
    logFile,
    process: child,
    exited,
    readyMs,
    memory: () => readStatus(pid),
    async kill() {
      if (gone === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (gone === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
