import {
  answerInputSchema,
  answerResultSchema,
  hintInputSchema,
  hintResultSchema,
  practiceInputSchema,
  practiceParamsSchema,
  practiceResponseSchema,
  startRunResponseSchema,
  runIdParamsSchema,
  runResponseSchema,
  startRunInputSchema,
  type RunState,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { fastSerializerCompiler } from '../../plugins/fast-serializer';
import {
  answerPracticeStep,
  answerStep,
  endRun,
  getRun,
  moveOn,
  openStepHint,
  practiceStartsLimit,
  resumeRun,
  runStartsLimit,
  startPractice,
  startRun,
} from './runs.service';

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
  // A finished run may complete something elsewhere (a learning path's certificate): plugins/run-events.ts.
  // Only the run's owner moves on or ends it.
  const settled = (userId: string, run: RunState) =>
    app.runEvents.settled({ runId: run.id, userId, scenarioId: run.scenarioId });
  const practiceLimit = practiceStartsLimit(runStartsPerMinute);
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
          'Starts a run of a scenario at its first step (201). A trainee has one unfinished run per scenario: while ' +
          'one exists the start continues it instead (200, `resumed`; an ended run goes back in progress where it ' +
          'stopped), unless `startOver` is true, which ends the run in progress (kept in history) and starts a new ' +
          'one. 404 for no such scenario; 409 when it cannot start; 429 when the user starts too many in a minute.',
        body: startRunInputSchema,
        response: { 200: startRunResponseSchema, 201: startRunResponseSchema, ...errorResponses(404, 409, 429) },
      },
    },
    async (request, reply) => {
      const started = await startRun(db, currentUser(request), request.body, startLimit, app.runJournal);
      return reply.status(started.resumed ? 200 : 201).send(started);
    },
  );

  app.post(
    '/:id/resume',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'resumeRun',
        summary: 'Resume an unfinished run',
        description:
          'Continues a run in progress, or puts an ended run back in progress at the step where it stopped. 403 when ' +
          'the run is not yours; 409 when it was completed or a newer run of the scenario was started; 410 when the ' +
          'scenario was deleted.',
        params: runIdParamsSchema,
        response: { 200: runResponseSchema, ...errorResponses(404, 409, 410) },
      },
    },
    async (request) => ({ run: await resumeRun(db, currentUser(request), request.params.id, app.runJournal) }),
  );

  app.post(
    '/:id/practice',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'startPractice',
        summary: 'Practise a missed step',
        description:
          'Replays a step missed in a finished run as practice: the step as the player shows it before an answer, with ' +
          'no key. Practice is recorded apart from the run and never changes its score. 403 when the run is not ' +
          'yours; 409 while the run is in progress or for a step not missed; 410 when the scenario was deleted; 429 ' +
          'for too many practice starts in a minute.',
        params: runIdParamsSchema,
        body: practiceInputSchema,
        response: { 201: practiceResponseSchema, ...errorResponses(404, 409, 410, 429) },
      },
    },
    async (request, reply) => {
      const practice = await startPractice(
        db,
        currentUser(request),
        request.params.id,
        request.body.stepId,
        practiceLimit,
      );
      return reply.status(201).send({ practice });
    },
  );

  app.post(
    '/:id/practice/:practiceId/answer',
    {
      config: { access: 'signedIn' },
      bodyLimit: ANSWER_BODY_LIMIT,
      schema: {
        tags: ['runs'],
        operationId: 'answerPractice',
        summary: 'Answer a practice step',
        description:
          'Answers a practice step once: graded as a first answer without a hint, with the revealed key and feedback. ' +
          "The run's score does not change. 400 for an answer that does not fit the step; 409 for a second answer.",
        params: practiceParamsSchema,
        body: answerInputSchema,
        response: { 200: practiceResponseSchema, ...errorResponses(404, 409, 410) },
      },
    },
    async (request) => ({
      practice: await answerPracticeStep(
        db,
        currentUser(request),
        { runId: request.params.id, practiceId: request.params.practiceId },
        request.body,
      ),
    }),
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
    async (request) => answerStep(db, currentUser(request), request.params.id, request.body, app.runJournal),
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
    async (request) => {
      const user = currentUser(request);
      const run = await moveOn(db, user, request.params.id, app.runJournal);
      if (run.status !== 'in_progress') await settled(user.id, run);
      return { run };
    },
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
    async (request) => {
      const user = currentUser(request);
      const run = await endRun(db, user, request.params.id, app.runJournal);
      await settled(user.id, run);
      return { run };
    },
  );
};
