import {
  answerInputSchema,
  answerResultSchema,
  runIdParamsSchema,
  runResponseSchema,
  startRunInputSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { answerStep, endRun, getRun, moveOn, startRun } from './runs.service';

/**
 * The run engine (DESIGN.md): the server decides correctness, feedback, the next step and the score.
 * A run is visible to its owner and to admins (404 to anyone else) and playable only by its owner.
 */
export const runsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'startRun',
        summary: 'Start a run',
        description: 'Starts a run of a scenario at its first step. 404 for no such scenario; 409 when it cannot start.',
        body: startRunInputSchema,
        response: { 201: runResponseSchema, ...errorResponses(404, 409) },
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
        operationId: 'getRun',
        summary: 'Read a run',
        description:
          'The whole state of a run: its current step (without answers until answered), score and timeline. Visible ' +
          'to its owner and to admins; 404 to anyone else.',
        params: runIdParamsSchema,
        response: { 200: runResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({ run: await getRun(db, currentUser(request), request.params.id) }),
  );

  app.post(
    '/:id/answer',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'answerStep',
        summary: 'Answer the current step',
        description:
          "Answers the run's current step, once: the server decides correctness, feedback, score and what comes next. " +
          '403 when the run is not yours; 409 for a second answer, another step or a finished run; 410 when the ' +
          'scenario was deleted.',
        params: runIdParamsSchema,
        body: answerInputSchema,
        response: { 200: answerResultSchema, ...errorResponses(404, 409, 410) },
      },
    },
    async (request) => answerStep(db, currentUser(request), request.params.id, request.body),
  );

  app.post(
    '/:id/next',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'moveOn',
        summary: 'Move on after an answer',
        description:
          'After an answer: the next step, the same step again (Retry), or completion. 409 before the step is ' +
          'answered or once the run is finished; 410 when the scenario was deleted.',
        params: runIdParamsSchema,
        response: { 200: runResponseSchema, ...errorResponses(404, 409, 410) },
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
        operationId: 'endRun',
        summary: 'End a run',
        description: 'End Simulation: finishes the run at once with status `ended`; 409 when it is already finished.',
        params: runIdParamsSchema,
        response: { 200: runResponseSchema, ...errorResponses(404, 409, 410) },
      },
    },
    async (request) => ({ run: await endRun(db, currentUser(request), request.params.id) }),
  );
};
