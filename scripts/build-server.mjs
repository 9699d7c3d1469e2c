// Compiles the server (and the shared package it uses) into one ES module, apps/server/dist/main.js, that plain
// Node runs: `npm start` runs it in one process; tsx stays a development tool. Third-party packages are left
// as imports (they are installed beside it, and better-sqlite3 and sharp carry native code).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
export const SERVER_ENTRY_POINTS = { main: 'src/main.ts', backup: 'src/cli/backup.ts', admin: 'src/cli/admin.ts' };
export const SERVER_OUT_DIR = path.join(serverDir, 'dist');

/** Every package a workspace names, except our own workspaces (which are bundled from their sources). */
function thirdPartyPackages() {
  const names = new Set();
  for (const workspace of ['apps/server', 'packages/shared']) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, workspace, 'package.json'), 'utf8'));
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      if (!name.startsWith('@tradecraft/')) names.add(name);
    }
  }
  return [...names];
}

export async function buildServer() {
  await build({
    absWorkingDir: serverDir,
    entryPoints: SERVER_ENTRY_POINTS,
    outdir: SERVER_OUT_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    sourcesContent: false,
    legalComments: 'linked',
    logLevel: 'warning',
    external: thirdPartyPackages().flatMap((name) => [name, `${name}/*`]),
    // Bundled CommonJS helpers (if any) need require() in an ES module.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
}

/** The newest modification time of any file below the folders (build output and dependencies aside). */
export function newestChange(...dirs) {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

/** True when the built file is missing or older than a file below any of the source folders. */
export const isStale = (builtFile, ...sourceDirs) =>
  !fs.existsSync(builtFile) || newestChange(...sourceDirs) > fs.statSync(builtFile).mtimeMs;

/** Compiles the server when a source of it (or of the shared package) changed since the last build. */
export async function buildServerIfStale() {
  const bundle = path.join(SERVER_OUT_DIR, 'main.js');
  if (!isStale(bundle, path.join(serverDir, 'src'), path.join(root, 'packages/shared/src'))) return;
  console.log('Compiling the server...');
  await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServer();
  console.log(`Server compiled to ${path.relative(root, SERVER_OUT_DIR)}/ in ${Date.now() - started} ms`);
}
