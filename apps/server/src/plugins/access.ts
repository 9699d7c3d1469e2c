import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import type { User } from '../db/schema';
import { forbidden, unauthorized } from '../errors';
import { loadSession, SESSION_COOKIE } from './sessions.repository';

/** Who may call a route. Every /api route must declare one; the app refuses to start otherwise. */
export type Access = 'public' | 'signedIn' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * True for the few signed-in routes an account whose password must change may still call (change it, and
     * what its page needs); every other signed-in or admin route answers 403 for it.
     */
    beforePasswordChange?: boolean;
    /** Set for every route under /api when it is registered (an API route loads the session). */
    api?: boolean;
  }
  interface FastifyInstance {
    /** Every /api route with the access it declared (the authorization matrix test walks it). */
    apiRoutes: { method: string; url: string; access: Access }[];
  }
  interface FastifyRequest {
    /** The signed-in user, re-read from the database on this request; null when signed out. */
    user: User | null;
    sessionId: string | null;
  }
}

/** The answer to an account whose printed first-start password is still its password, on any other route. */
export const PASSWORD_CHANGE_DUE = 'Choose a new password before continuing.';

/** The signed-in user of a route whose access is 'signedIn' or 'admin'. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * Decides who may call each route from the route the router matched, never from the raw URL: the router matches
 * the percent-decoded path, so a test of `request.url` can be walked round with `/%61pi/users` (docs/architecture.md,
 * "Access control").
 */
export function registerAccess(app: FastifyInstance, db: Db): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  const apiRoutes: FastifyInstance['apiRoutes'] = [];
  app.decorate('apiRoutes', apiRoutes);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const isApi = route.url === '/api' || route.url.startsWith('/api/');
    if (route.url.startsWith('/api/docs')) {
      route.config = { ...route.config, access: 'public', api: true };
      return;
    }
    if (!isApi) {
      // The web app's files and pages: public by nature, and they never load a session.
      route.config = { ...route.config, access: route.config?.access ?? 'public', api: false };
      return;
    }
    route.config = { ...route.config, api: true };
    if (methods.every((method) => method === 'HEAD')) return;
    const access = route.config.access;
    if (!access) {
      throw new Error(`Route ${methods.join(',')} ${route.url} must declare config.access`);
    }
    for (const method of methods) if (method !== 'HEAD') apiRoutes.push({ method, url: route.url, access });
  });

  app.addHook('onRequest', async (request) => {
    // No matched route: the not-found handler answers, and it gives nothing away.
    if (request.routeOptions.url === undefined) return;
    const { access, api } = request.routeOptions.config;
    if (!api) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token) {
      const loaded = await loadSession(db, token);
      if (loaded) {
        request.user = loaded.user;
        request.sessionId = loaded.sessionId;
      }
    }
    // Deny by default: a matched API route that somehow declares nothing is refused, never opened.
    if (access === undefined) throw forbidden();
    if (access === 'public') return;
    if (!request.user) throw unauthorized();
    if (request.user.must_change_password === 1 && !request.routeOptions.config.beforePasswordChange) {
      throw forbidden(PASSWORD_CHANGE_DUE);
    }
    if (access === 'admin' && request.user.role !== 'admin') throw forbidden();
  });
}
