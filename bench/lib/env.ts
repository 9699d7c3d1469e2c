import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/ sits right under it). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.join(ROOT, 'bench', 'results');

/** Ports reserved for the benchmarks (4900-4949); each benchmark has its own, so they never collide. */
export const PORTS = {
  answerProduct: 4900,
  answerBaseline: 4901,
  crash: 4902,
  hostileFiles: 4903,
  pages: 4904,
  browser: 4905,
  hostileTextE2e: 4906,
  /** The pages part's second and further scales, up at the same time as the first (4904). */
  pagesMoreScales: 4910,
} as const;

/** Where the benchmarks' PostgreSQL databases are created (and dropped): a server on this machine. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The SPA build the browser benchmarks serve; built once per `npm run bench` unless it is there already. */
export const WEB_DIST_DIR = process.env.BENCH_WEB_DIST ?? '/tmp/dist-h10';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
  sqlite: string;
  postgres: string | null;
}

export function machineInfo(): Omit<Machine, 'sqlite' | 'postgres'> {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `tradecraft-bench-${prefix}-`));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** Quantile of an already sorted list (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat; null when it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the whole line)
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/** The kernel's count of connections dropped because a listen queue was full (TcpExt ListenOverflows). */
export function listenOverflows(): number {
  try {
    const lines = fs
      .readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('TcpExt:'));
    const names = lines[0]!.split(/\s+/);
    const values = lines[1]!.split(/\s+/);
    return Number(values[names.indexOf('ListenOverflows')] ?? 0);
  } catch {
    return 0;
  }
}
