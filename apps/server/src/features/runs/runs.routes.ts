import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';

export const runsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (_app, _options) => {};
