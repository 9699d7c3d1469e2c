import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './env';
import { table } from './report';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The hottest functions of a V8 .cpuprofile by self time, as a markdown table. */
export function summarizeCpuProfile(file: string, top: number): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) =>
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)),
  );
  const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);
  const byFunction = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const where = frame.url ? `${shorten(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const rows = [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => [name, Math.round((micros / total) * 1000) / 10]);
  return table(['function', 'self %'], rows);
}

function shorten(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  const relative = path.relative(ROOT, file);
  return relative.replace(/^node_modules\//, '');
}

/** The functions with the most inclusive time (self + callees) whose location matches `include`, as a table. */
export function inclusiveCpuProfile(file: string, top: number, include: RegExp = /./): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const label = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url ? `${shorten(node.callFrame.url)}:${node.callFrame.lineNumber + 1}` : ''}`.trim();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    total += micros;
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const key = label(byId.get(current)!);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
    }
  });
  const rows = [...inclusive.entries()]
    .filter(([name]) => include.test(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => [name, Math.round((micros / total) * 1000) / 10]);
  return table(['function', 'inclusive %'], rows);
}

const CATEGORIES: [string, RegExp][] = [
  ['SQLite (better-sqlite3 executing statements)', /better-sqlite3|kysely\/dist\/esm\/dialect\/sqlite\/sqlite-driver/],
  ['Kysely (building and compiling queries)', /kysely\//],
  ['pg driver', /node_modules\/pg(-[a-z]+)?\//],
  ['zod (validating bodies and responses)', /zod\/|fastify-type-provider-zod/],
  ['helmet (security headers, rebuilt per request)', /helmet/],
  ['Fastify (routing, hooks, replies)', /fastify\/|@fastify\/|light-my-request|find-my-way|avvio|pino/],
  ['app: run engine', /apps\/server\/src\/features\/runs\//],
  ['app: sessions and access', /apps\/server\/src\/features\/auth\//],
  ['app: other', /apps\/server\/src\/|packages\/shared\//],
  ['module loading (start-up)', /node:internal\/modules|tsx\/dist|esbuild/],
  [
    'Node HTTP and streams',
    /node:_http|node:internal\/streams|node:internal\/http|node:events|node:net|node:internal\/stream_base/,
  ],
];

/** Self time of a .cpuprofile by where it was spent (library or app part), as a markdown table. */
export function categorizeCpuProfile(file: string): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    total += micros;
    const frame = byId.get(id)?.callFrame;
    const url = frame?.url ?? '';
    const name = frame?.functionName ?? '';
    let category: string;
    if (name === '(idle)') category = 'idle (waiting for the network)';
    else if (name === '(garbage collector)') category = 'garbage collection';
    else if (name === 'writev' || name === 'writeBuffer' || name === 'writeUtf8String')
      category = 'socket writes (kernel, loopback TCP)';
    else
      category =
        CATEGORIES.find(([, pattern]) => pattern.test(url))?.[0] ?? (url ? 'other JavaScript' : 'native / V8 other');
    totals.set(category, (totals.get(category) ?? 0) + micros);
  });
  const rows = [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([category, micros]) => [category, Math.round((micros / total) * 1000) / 10]);
  return table(['where the server process spent its CPU', 'self %'], rows);
}
