import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, log, ROOT, WEB_DIST_DIR } from './env';

let built = false;

/** The production build of the SPA in its own folder (built once per `npm run bench` unless asked not to). */
export function ensureWebBuild(skipBuild: boolean): string {
  const index = path.join(WEB_DIST_DIR, 'index.html');
  if (built || (skipBuild && fs.existsSync(index))) return WEB_DIST_DIR;
  log(`building the web app into ${WEB_DIST_DIR}`);
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', WEB_DIST_DIR, '--emptyOutDir'],
    {
      cwd: path.join(ROOT, 'apps/web'),
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (result.status !== 0 || !fs.existsSync(index)) throw new Error('the web build failed');
  built = true;
  return WEB_DIST_DIR;
}

/** The system Chromium, headless, with the flags the e2e suite uses; never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless=new'),
  });
}
