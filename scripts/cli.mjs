// `npm run <command> -- ...` for the server's operations commands (backup): compiles the server when its
// sources changed, then runs the compiled command in this process, as `npm start` runs the server.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServerIfStale, SERVER_ENTRY_POINTS, SERVER_OUT_DIR } from './build-server.mjs';

const command = process.argv[2];
if (!command || command === 'main' || !(command in SERVER_ENTRY_POINTS)) {
  const known = Object.keys(SERVER_ENTRY_POINTS).filter((name) => name !== 'main');
  console.error(`Unknown command "${command ?? ''}". Commands: ${known.join(', ')}.`);
  process.exit(2);
}
await buildServerIfStale();
// The command reads its own arguments from process.argv[2] on, as if it had been started directly.
process.argv.splice(2, 1);
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(SERVER_OUT_DIR, `${command}.js`)).href);
