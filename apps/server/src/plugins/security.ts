import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** Security headers, and the CSRF rule: state changes need JSON or multipart, and never another origin. */
export async function registerSecurity(app: FastifyInstance, publicOrigin: string): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables into a <style> element at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: publicOrigin.startsWith('https://') ? [] : null,
      },
    },
    hsts: publicOrigin.startsWith('https://'),
    crossOriginEmbedderPolicy: false,
  });

  // PostgreSQL cannot store U+0000 in text (the query fails: a 500), SQLite stores it, and no field here has a
  // use for it: refused in every path parameter, query and JSON body alike, on both databases.
  app.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw new AppError(400, 'The request contains a NUL character (U+0000); remove it and try again.');
    }
  });

  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/api/')) return;
    if (!isSameOrigin(request, publicOrigin)) {
      throw new AppError(403, 'Cross-origin requests are not allowed.');
    }
    if (WITH_BODY.has(request.method)) {
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json' && type !== 'multipart/form-data') {
        throw new AppError(415, 'Send the request as JSON (or multipart/form-data for a file).');
      }
    }
  });
}

/**
 * True when any string in the value (or any key) holds U+0000. Walks without recursion: a JSON body may nest
 * thousands of levels deep.
 */
function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (Array.isArray(current)) {
      pending.push(...current);
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, entry] of Object.entries(current)) {
        if (key.includes('\u0000')) return true;
        pending.push(entry);
      }
    }
  }
  return false;
}

function isSameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  // Browsers send Origin with every cross-origin state change; a request without one is not a browser's CSRF.
  if (origin === undefined) return request.headers['sec-fetch-site'] !== 'cross-site';
  if (origin === publicOrigin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
