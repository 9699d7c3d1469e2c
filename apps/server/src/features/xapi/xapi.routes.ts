import { xapiStatusResponseSchema } from '@tradecraft/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { XapiConfig } from '../../config';
import type { Db } from '../../db/database';
import { outboxWriter, XapiDelivery, xapiStatus } from './xapi.service';

/**
 * Turns xAPI on when XAPI_ENDPOINT is set (docs/interoperability.md, "xAPI"): the run engine's journal writes
 * statements to the outbox, and a sender delivers them from the moment the server is ready until it closes.
 */
export function registerXapi(app: FastifyInstance, db: Db, config: XapiConfig | null, publicOrigin: string): void {
  const delivery = config ? new XapiDelivery(db, config, app.log) : null;
  app.decorate('xapiDelivery', delivery);
  if (!config || !delivery) return;
  const write = outboxWriter({ publicOrigin, actor: config.actor });
  app.runJournal.use(async (trx, entry) => {
    await write(trx, entry);
    delivery.soon();
  });
  app.addHook('onReady', async () => delivery.start());
  app.addHook('onClose', async () => delivery.stop());
}

/** `/api/xapi`: how statements to the Learning Record Store stand. */
export const xapiRoutes: FastifyPluginAsyncZod<{ db: Db; config: XapiConfig | null }> = async (app, { db, config }) => {
  app.get(
    '/status',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['xapi'],
        operationId: 'getXapiStatus',
        summary: 'How xAPI delivery stands',
        description:
          'Whether statements go to a Learning Record Store (XAPI_ENDPOINT), how many wait in the outbox, how many ' +
          'the LRS refused for good, when it last accepted a batch, and the latest error.',
        response: { 200: xapiStatusResponseSchema },
      },
    },
    async () => xapiStatus(db, config),
  );
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The xAPI sender, when XAPI_ENDPOINT is set. */
    xapiDelivery: XapiDelivery | null;
  }
}
