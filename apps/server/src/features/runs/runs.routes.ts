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
import { errorResponses } from '../../plugins/docs';
import { fastSerializerCompiler } from '../../plugins/fast-serializer';
import { answerStep, endRun, getRun, moveOn, openStepHint, runStartsLimit, startRun } from './runs.service';

// A written answer may be up to MAX_WRITE_TEXT_CHARS; a longer one (even a megabyte) must reach the schema and be
// refused with 400 naming the limit, not cut off by the app-wide body limit.
const ANSWER_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The run engine (docs/architecture.md): the server decides correctness, feedback, the next step and the score.
 * A run is visible to its owner and to admins (404 to anyone else) and playable only by its owner.
 */
export const runsRoutes: FastifyPluginAsyncZod<{ db: Db; runStartsPerMinute: number }> = async (
  app,
  { db, runStartsPerMinute },
) => {
  const startLimit = runStartsLimit(runStartsPerMinute);
  app.post(
    '',
    {
      config: { access: 'signedIn' },
      serializerCompiler: fastSerializerCompiler,
      schema: {
        tags: ['runs'],
        operationId: 'startRun',
        summary: 'Start a run',
        description:
          'Starts a run of a scenario at its first step. 404 for no such scenario; 409 when it cannot start; 429 when ' +
          'the user starts too many in a minute.',
        body: startRunInputSchema,
        response: { 201: runResponseSchema, ...errorResponses(404, 409, 429) },
      },
    },
    async (request, reply) => {
      const run = await startRun(db, currentUser(request), request.body, startLimit);
      return reply.status(201).send({ run });
    },
  );

  app.get(
    '/:id',
    {
      config: { access: 'signedIn' },
      serializerCompiler: fastSerializerCompiler,
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
      serializerCompiler: fastSerializerCompiler,
      bodyLimit: ANSWER_BODY_LIMIT,
      schema: {
        tags: ['runs'],
        operationId: 'answerStep',
        summary: 'Answer the current step',
        description:
          "Answers the run's current step, once, with the fields of its kind: the server decides the credit and returns " +
          'the revealed key and per-element feedback. 400 for an answer that does not fit the step; 403 when the run is ' +
          'not yours; 409 for a second answer, another step or a finished run; 410 when the scenario was deleted.',
        params: runIdParamsSchema,
        body: answerInputSchema,
        response: { 200: answerResultSchema, ...errorResponses(404, 409, 410) },
      },
    },
    async (request) => answerStep(db, currentUser(request), request.params.id, request.body),
  );

  app.post(
    '/:id/hint',
    {
      config: { access: 'signedIn' },
      serializerCompiler: fastSerializerCompiler,
      schema: {
        tags: ['runs'],
        operationId: 'openStepHint',
        summary: "Open the current step's hint",
        description:
          "Opens the current step's hint and records it; opened before the first answer it costs the step's hint cost.",
        params: runIdParamsSchema,
        body: hintInputSchema,
        response: { 200: hintResultSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => openStepHint(db, currentUser(request), request.params.id, request.body.stepId),
  );

  app.post(
    '/:id/next',
    {
      config: { access: 'signedIn' },
      serializerCompiler: fastSerializerCompiler,
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
      serializerCompiler: fastSerializerCompiler,
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
