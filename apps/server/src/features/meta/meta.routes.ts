import { metaSchema } from '@tradecraft/shared';
import { ATTACK_VERSION } from '@tradecraft/shared/attack';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Public facts for the help and contact screens: the code repository and the ATT&CK release. */
export const metaRoutes: FastifyPluginAsyncZod<{ repositoryUrl: string }> = async (app, { repositoryUrl }) => {
  const meta = { repositoryUrl: repositoryUrl.replace(/\/+$/, ''), attackVersion: ATTACK_VERSION };
  app.get(
    '',
    {
      config: { access: 'public' },
      schema: {
        tags: ['meta'],
        operationId: 'getMeta',
        summary: 'About this server',
        description: 'Where the code lives (for Contact Us) and which ATT&CK release the scenarios map to.',
        response: { 200: metaSchema },
      },
    },
    async () => meta,
  );
};
