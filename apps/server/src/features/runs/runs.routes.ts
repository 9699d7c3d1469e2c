import {
  answerInputSchema,
  answerResultSchema,
  hintInputSchema,
  hintResultSchema,
  runIdParamsSchema,
  runResponseSchema,
  startRunInputSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { answerStep, endRun, getRun, moveOn, openStepHint, startRun } from './runs.service';

// A written answer may be up to MAX_WRITE_TEXT_CHARS; a longer one (even a megabyte) must reach the schema and be
// refused with 400 naming the limit, not cut off by the app-wide body limit.
const ANSWER_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The run engine (docs/architecture.md): the server decides correctness, feedback, the next step and the score.
 * A run is visible to its owner and to admins (404 to anyone else) and playable only by its owner.
 */
export const runsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        summary: 'Start a run of a scenario at its first step',
        body: startRunInputSchema,
        response: { 201: runResponseSchema },
      },
    },
    async (request, reply) => {
      const run = await startRun(db, currentUser(request), request.body);
      return reply.status(201).send({ run });
    },
  );

  app.get(
    '/:id',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        summary: 'The whole state of a run: current step (redacted until answered), score, timeline',
        params: runIdParamsSchema,
        response: { 200: runResponseSchema },
      },
    },
    async (request) => ({ run: await getRun(db, currentUser(request), request.params.id) }),
  );

  app.post(
    '/:id/answer',
    {
      config: { access: 'signedIn' },
      bodyLimit: ANSWER_BODY_LIMIT,
      schema: {
        tags: ['runs'],
        summary:
          "Answer the run's current step (once) with the fields of its kind: the credit, the revealed key and per-element " +
          'feedback; 400 for an answer that does not fit the step, 409 for a second answer, 410 when the scenario was deleted',
        params: runIdParamsSchema,
        body: answerInputSchema,
        response: { 200: answerResultSchema },
      },
    },
    async (request) => answerStep(db, currentUser(request), request.params.id, request.body),
  );

  app.post(
    '/:id/hint',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        summary: "Open the current step's hint and record it; opened before the first answer it costs the step's hint cost",
        params: runIdParamsSchema,
        body: hintInputSchema,
        response: { 200: hintResultSchema },
      },
    },
    async (request) => openStepHint(db, currentUser(request), request.params.id, request.body.stepId),
  );

  app.post(
    '/:id/next',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        summary: 'Move on after an answer: the next step, the same step again (Retry), or completion',
        params: runIdParamsSchema,
        response: { 200: runResponseSchema },
      },
    },
    async (request) => ({ run: await moveOn(db, currentUser(request), request.params.id) }),
  );

  app.post(
    '/:id/end',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        summary: 'End Simulation: finish the run at once with status ended',
        params: runIdParamsSchema,
        response: { 200: runResponseSchema },
      },
    },
    async (request) => ({ run: await endRun(db, currentUser(request), request.params.id) }),
  );
};
