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
