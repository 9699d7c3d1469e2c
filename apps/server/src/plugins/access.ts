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

/** The signed-in user of a route whose access is 'signedIn' or 'admin'. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}

export function registerAccess(app: FastifyInstance, db: Db): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  const apiRoutes: FastifyInstance['apiRoutes'] = [];
  app.decorate('apiRoutes', apiRoutes);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    if (route.url.startsWith('/api/docs')) {
      route.config = { ...route.config, access: 'public' };
      return;
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => method === 'HEAD')) return;
    const access = route.config?.access;
    if (!access) {
      throw new Error(`Route ${methods.join(',')} ${route.url} must declare config.access`);
    }
    for (const method of methods) if (method !== 'HEAD') apiRoutes.push({ method, url: route.url, access });
  });

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return; // static files need no session
    const token = request.cookies[SESSION_COOKIE];
    if (token) {
      const loaded = await loadSession(db, token);
      if (loaded) {
        request.user = loaded.user;
        request.sessionId = loaded.sessionId;
      }
    }
    const access = request.routeOptions.config.access ?? 'public';
    if (access === 'public') return;
    if (!request.user) throw unauthorized();
    if (access === 'admin' && request.user.role !== 'admin') throw forbidden();
  });
}
