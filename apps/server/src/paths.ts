import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root, found by walking up from this module to the package.json that declares the workspaces.
 * The same answer whether the server runs from its TypeScript sources (development, tests) or from the compiled
 * bundle in apps/server/dist (`npm start`), so no path depends on how deep a module sits.
 */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && 'workspaces' in (JSON.parse(fs.readFileSync(manifest, 'utf8')) as object))
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`No workspace root above ${start}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The built-in scenario library. */
export const BUILTIN_SCENARIOS_DIR = path.join(PROJECT_ROOT, 'content', 'scenarios');

/** The web app's production build, served by the server. */
export const DEFAULT_WEB_DIST = path.join(PROJECT_ROOT, 'apps', 'web', 'dist');
