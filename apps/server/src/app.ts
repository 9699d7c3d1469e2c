import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db, Dialect } from './db/database';
import { DEFAULT_WEB_DIST } from './paths';
import { registerAccess } from './plugins/access';
import { activityRoutes } from './features/activity/activity.routes';
import { auditRoutes } from './features/audit/audit.routes';
import { ssoRoutes } from './features/sso/sso.routes';
import { apiTokensRoutes } from './features/api-tokens/api-tokens.routes';
import { recordApiTokenChange } from './features/api-tokens/api-tokens.service';
import { authRoutes } from './features/auth/auth.routes';
import { relyingPartyOf } from './features/auth/second-factor.service';
import { securityRoutes } from './features/auth/security.routes';
import { healthRoutes } from './features/health/health.routes';
import { metaRoutes } from './features/meta/meta.routes';
import { notificationsRoutes } from './features/notifications/notifications.routes';
import { profileRoutes } from './features/profile/profile.routes';
import { reviewsRoutes } from './features/reviews/reviews.routes';
import { progressRoutes } from './features/progress/progress.routes';
import { runsRoutes } from './features/runs/runs.routes';
import { casefileRoutes } from './features/casefile/casefile.routes';
import { scenariosRoutes } from './features/scenarios/scenarios.routes';
import { checkOnlyRoutes } from './features/scenarios/check-only.routes';
import { versionsRoutes } from './features/scenarios/versions.routes';
import { interopRoutes } from './features/interop/interop.routes';
import { settingsRoutes } from './features/settings/settings.routes';
import { usersRoutes } from './features/users/users.routes';
import { programmesRoutes } from './features/programmes/programmes.routes';
import { registerDocs } from './plugins/docs';
import { answerFrameworkError, registerErrorHandler } from './plugins/error-handler';
import { registerOperationalHeaders, requestIdOptions } from './plugins/operations';
import { originPolicy, registerSecurity } from './plugins/security';
import { registerSessionCookie } from './plugins/session-cookie';
import { registerRequestTurns } from './plugins/request-turns';
import { registerRunEvents } from './plugins/run-events';
import { registerRunJournal } from './plugins/run-journal';
import { registerXapi, xapiRoutes } from './features/xapi/xapi.routes';
import { mailRoutes, registerMail } from './features/mail/mail.routes';
import { registerWeb } from './plugins/web';

export interface AppOptions {
  config: Config;
  db: Db;
  dialect: Dialect;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole Fastify instance, ready to listen or to take app.inject() calls in tests. */
export async function buildApp({ config, db, dialect, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    ...requestIdOptions(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Generated bodies and ids only; reject path parameters long enough to be an attack.
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('dialect', dialect);
  app.decorate('config', config);
  // First of all hooks: a request waiting for its turn has cost nothing yet.
  registerRequestTurns(app);
  registerRunEvents(app);
  registerRunJournal(app);
  registerXapi(app, db, config.xapi, config.publicOrigin);
  registerMail(app, db, config.mail, config.publicOrigin);

  registerErrorHandler(app);
  registerOperationalHeaders(app);
  await app.register(cookie);
  await app.register(multipart, { limits: { files: 1, fields: 5, fileSize: 2 * 1024 * 1024, parts: 6 } });
  await registerSecurity(app, config.publicOrigin, config.trustedHosts);
  const origins = originPolicy(config.publicOrigin, config.trustedHosts);
  // Passkeys are bound to the page's host name (a browser refuses an IP address), so the page's origin is used
  // whenever the server accepts it for state changes.
  const relyingParty = (origin: string | undefined) =>
    relyingPartyOf(origin && origins.isAllowedOrigin(origin) ? origin : config.publicOrigin);
  registerSessionCookie(app, config.secureCookies);
  registerAccess(app, db, {
    onApiTokenChange: (request, statusCode) =>
      recordApiTokenChange(db, {
        user: request.user!,
        tokenName: request.apiToken!.name,
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        statusCode,
      }),
  });
  await registerDocs(app);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { db });
      await api.register(authRoutes, {
        prefix: '/auth',
        db,
        secureCookies: config.secureCookies,
        lockout: { lockoutMs: config.lockoutMinutes * 60_000 },
        localLogin: config.localLogin,
        relyingParty,
      });
      await api.register(ssoRoutes, { prefix: '/auth', db, config });
      await api.register(apiTokensRoutes, { prefix: '/tokens', db });
      await api.register(securityRoutes, { prefix: '/security', db, relyingParty });
      await api.register(usersRoutes, { prefix: '/users', db });
      await api.register(profileRoutes, { db }); // /profile and /users/:id/photo
      await api.register(metaRoutes, { prefix: '/meta', repositoryUrl: config.repositoryUrl });
      await api.register(activityRoutes, { prefix: '/logs', db });
      await api.register(auditRoutes, { prefix: '/audit', db });
      await api.register(notificationsRoutes, { prefix: '/notifications', db });
      await api.register(scenariosRoutes, { prefix: '/sim', db });
      await api.register(checkOnlyRoutes, { prefix: '/sim', db });
      await api.register(versionsRoutes, { prefix: '/sim', db });
      await api.register(interopRoutes, { prefix: '/sim', db, publicOrigin: config.publicOrigin });
      await api.register(settingsRoutes, {
        prefix: '/settings',
        db,
        publicOriginSet: config.publicOriginSet,
        // The account ADMIN_PASSWORD sets at every start has the operator's own password, not a printed one.
        operatorAdminEmail: config.adminPassword ? (config.adminEmail ?? 'admin@localhost') : null,
        repositoryUrl: config.repositoryUrl,
      });
      await api.register(runsRoutes, { prefix: '/runs', db, runStartsPerMinute: config.runStartsPerMinute });
      await api.register(casefileRoutes, { prefix: '/runs', db });
      await api.register(progressRoutes, { prefix: '/progress', db });
      await api.register(reviewsRoutes, { prefix: '/reviews', db });
      await api.register(xapiRoutes, { prefix: '/xapi', db, config: config.xapi });
      await api.register(mailRoutes, { prefix: '/mail', db, config: config.mail });
      await api.register(programmesRoutes, { db });
    },
    { prefix: '/api' },
  );

  await registerWeb(app, path.resolve(config.webDistDir ?? DEFAULT_WEB_DIST));
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    dialect: Dialect;
    config: Config;
  }
}
