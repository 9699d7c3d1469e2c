import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Serves the built SPA: hashed assets cached for a year, index.html never, client routes fall back to it. */
export async function registerWeb(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ distDir }, 'the web app is not built; run `npm run build` to serve it');
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    // One route that looks the file up per request: a route per file (GET and HEAD for each of the build's
    // hundreds of files, assets and their .br/.gz copies) tripled the time from start to healthy.
    wildcard: true,
    index: false,
    cacheControl: false,
    // The build writes .br and .gz beside each asset (apps/web/vite.config.ts): sent when the browser accepts them.
    preCompressed: true,
    setHeaders(reply, filePath) {
      const relative = path.relative(distDir, filePath);
      reply.header('cache-control', relative.startsWith('assets' + path.sep) ? IMMUTABLE : 'no-cache');
    },
  });
  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  app.decorate('sendSpaIndex', sendIndex);

  function sendIndex(reply: FastifyReply) {
    return reply.header('cache-control', 'no-cache').sendFile('index.html', distDir);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    sendSpaIndex?: (reply: FastifyReply) => FastifyReply;
  }
}
