import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';

export const activityRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (_app, _options) => {};
