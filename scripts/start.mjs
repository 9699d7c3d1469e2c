// `npm start`: builds the web app and compiles the server when either is missing or older than its sources, then
// runs the compiled server in this same Node process (no tsx, no child process).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServerIfStale, isStale, SERVER_OUT_DIR } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'apps/web');

if (isStale(path.join(webDir, 'dist/index.html'), webDir, path.join(root, 'packages/shared/src'))) {
  console.log('Building the web app...');
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await buildServerIfStale();

process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(SERVER_OUT_DIR, 'main.js')).href);
