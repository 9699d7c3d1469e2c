// Writes the OpenAPI document the server serves at /api/docs/json, without listening and without touching any
// real data: `tsx apps/server/scripts/openapi.ts out.json` (stdout without a file). `npm run lint:api` lints it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';

/** The generated document, from the app built on a throw-away SQLite file; PUBLIC_ORIGIN sets its server. */
export async function generateOpenApiDocument(env: NodeJS.ProcessEnv = process.env): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-openapi-'));
  const config = loadConfig({ ...env, WEB_DIST_DIR: path.join(dir, 'no-web'), LOG_LEVEL: 'silent' });
  const { db, dialect } = openDatabase({ sqliteFile: path.join(dir, 'openapi.db') });
  try {
    const app = await buildApp({ config, db, dialect });
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const document = `${JSON.stringify(await generateOpenApiDocument(), null, 2)}\n`;
  const out = process.argv[2];
  if (out) fs.writeFileSync(out, document);
  else process.stdout.write(document);
}
