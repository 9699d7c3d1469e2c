import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

/** Methods that change state: the Origin check and the JSON-body rule apply to them. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Methods that may carry a body (its size limit and media type are checked). */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** Security headers, and the CSRF rule: state changes need JSON or multipart, and never another origin. */
export async function registerSecurity(
  app: FastifyInstance,
  publicOrigin: string,
  trustedHosts: readonly string[] = [],
): Promise<void> {
  const origins = originPolicy(publicOrigin, trustedHosts);
  // Helmet's headers depend on nothing in the request, so they are worked out once here rather than per request.
  const securityHeaders = staticHelmetHeaders({
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
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(securityHeaders);
    done();
  });

  // The checks below wait for nothing, so they answer through `done` rather than a promise (every request passes
  // through each of them).

  // Every decision below is made before routing can be fooled: a path the router would read one way and a prefix
  // test another (an escaped letter, an escaped slash or dot, a doubled slash) is refused outright.
  app.addHook('onRequest', (request, _reply, done) => {
    const problem = ambiguousPath(request.raw.url ?? '/');
    done(problem ? new AppError(400, problem) : undefined);
  });

  // DNS rebinding: a page on another name that resolves here must not be answered as if it were this site.
  app.addHook('onRequest', (request, _reply, done) => {
    const known = request.routeOptions.config.anyHost || origins.isKnownHost(request.host);
    done(known ? undefined : new AppError(421, 'This server does not answer for that host name.'));
  });

  app.addHook('onRequest', (request, _reply, done) => done(crossSiteProblem(request, origins)));

  // PostgreSQL cannot store U+0000 in text (the query fails: a 500), SQLite stores it, and no field here has a
  // use for it: refused in every path parameter, query and JSON body alike, on both databases.
  app.addHook('preValidation', (request, _reply, done) => {
    const nul =
      request.routeOptions.config.api &&
      (containsNul(request.params) || containsNul(request.query) || containsNul(request.body));
    done(
      nul ? new AppError(400, 'The request contains a NUL character (U+0000); remove it and try again.') : undefined,
    );
  });
}

/** Why a request must be refused as a cross-site one (another origin, a type a form could send), or undefined. */
function crossSiteProblem(request: FastifyRequest, origins: Origins): AppError | undefined {
  if (!STATE_CHANGING_METHODS.has(request.method)) return undefined;
  if (!isSameOrigin(request, origins)) return new AppError(403, 'Cross-origin requests are not allowed.');
  if (!BODY_METHODS.has(request.method)) return undefined;
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  // An action with nothing to send (sign out, mark read, next step) may come with no body and no type at all.
  if (type === '' && !hasBody(request)) return undefined;
  if (type !== 'application/json' && type !== 'multipart/form-data') {
    return new AppError(415, 'Send the request as JSON (or multipart/form-data for a file).');
  }
  return undefined;
}

/** A request carries a body when it says how long it is (and that is more than nothing) or that it is chunked. */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined && length !== '0') return true;
  return request.headers['transfer-encoding'] !== undefined;
}

// Characters that need no escaping in a path: an escape of one of them (or of a slash or backslash) can only be
// there to make the router and a prefix test disagree.
const NEEDLESS_ESCAPE = /%(?:[46][1-9a-f]|[57][0-9a]|3[0-9]|2[de]|5f|7e|2f|5c)/i;

/** Why a request path is ambiguous, or null when it is plain. Exported for the tests. */
export function ambiguousPath(rawUrl: string): string | null {
  const path = rawUrl.split('?')[0] ?? '';
  if (!path.startsWith('/') || path.includes('//') || path.includes('\\')) {
    return 'The request path is malformed.';
  }
  if (NEEDLESS_ESCAPE.test(path) || /\/\.{1,2}(?:\/|$)/.test(path)) return 'The request path is malformed.';
  return null;
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

function isSameOrigin(request: FastifyRequest, origins: Origins): boolean {
  const origin = request.headers.origin;
  // Browsers send Origin with every cross-origin state change; a request without one is not a browser's CSRF.
  if (origin === undefined) return request.headers['sec-fetch-site'] !== 'cross-site';
  return origins.isAllowedOrigin(origin);
}

export interface Origins {
  isKnownHost(host: string): boolean;
  isAllowedOrigin(origin: string): boolean;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The names this server answers for and the origins that may change state. A loopback name is always answered
 * (a browser only sends it when the page itself is on that name, so it cannot be a rebinding); a state change
 * needs exactly PUBLIC_ORIGIN, a TRUSTED_HOSTS name on the same scheme, or, while PUBLIC_ORIGIN is itself a
 * loopback address, the other loopback names on its port.
 */
export function originPolicy(publicOrigin: string, trustedHosts: readonly string[]): Origins {
  const publicUrl = new URL(publicOrigin);
  const hostnameOf = (host: string) => {
    try {
      return new URL(`http://${host}`).hostname.toLowerCase();
    } catch {
      return null;
    }
  };
  const trusted = trustedHosts.map((host) => host.trim().toLowerCase()).filter(Boolean);
  const knownNames = new Set([publicUrl.hostname.toLowerCase(), ...LOOPBACK_NAMES]);
  for (const host of trusted) {
    const name = hostnameOf(host);
    if (name) knownNames.add(name);
  }
  const allowedOrigins = new Set([publicUrl.origin]);
  for (const host of trusted) {
    try {
      allowedOrigins.add(new URL(`${publicUrl.protocol}//${host}`).origin);
    } catch {
      // A malformed entry is refused by the configuration check; nothing to add here.
    }
  }
  if (LOOPBACK_NAMES.has(publicUrl.hostname)) {
    const port = publicUrl.port ? `:${publicUrl.port}` : '';
    for (const name of ['localhost', '127.0.0.1', '[::1]']) allowedOrigins.add(`${publicUrl.protocol}//${name}${port}`);
  }
  return {
    isKnownHost(host: string) {
      const name = hostnameOf(host);
      return name !== null && knownNames.has(name);
    },
    isAllowedOrigin(origin: string) {
      return allowedOrigins.has(origin.toLowerCase());
    },
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer whatever Host the request names (health checks from a load balancer that dials the address). */
    anyHost?: boolean;
  }
}

/** The headers helmet would set on a response, collected once from a stand-in response. */
export function staticHelmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // Helmet's middleware runs synchronously; if a future version does not, fail at start rather than send no headers.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}
