import {
  gradeReviewInputSchema,
  reviewDetailSchema,
  reviewIdParamsSchema,
  reviewListQuerySchema,
  reviewListSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { gradeReview, reviewDetail, reviewQueue } from './reviews.service';

/** The instructor review queue for written answers (admins only). */
export const reviewsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['reviews'],
        operationId: 'listReviews',
        summary: 'List written answers to grade',
        description:
          'Written answers to grade (pending, oldest first) or graded (newest first), filtered by scenario and trainee.',
        querystring: reviewListQuerySchema,
        response: { 200: reviewListSchema },
      },
    },
    async (request) => reviewQueue(db, request.query),
  );

  app.get(
    '/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['reviews'],
        operationId: 'getReview',
        summary: 'Read a written answer',
        description: 'One written answer with its automatic checks, the rubric and the model answer.',
        params: reviewIdParamsSchema,
        response: { 200: reviewDetailSchema, ...errorResponses(404) },
      },
    },
    async (request) => reviewDetail(db, request.params.id),
  );

  app.post(
    '/:id/grade',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['reviews'],
        operationId: 'gradeReview',
        summary: 'Grade a written answer',
        description:
          "Grades a written answer by rubric points with a comment: sets the step's final credit, updates the run's score " +
          'and result, notifies the trainee and writes the audit log (once; 409 when already graded).',
        params: reviewIdParamsSchema,
        body: gradeReviewInputSchema,
        response: { 200: reviewDetailSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const graded = await gradeReview(db, currentUser(request), request.params.id, request.body);
      // The grade may turn the run into a pass (plugins/run-events.ts).
      await app.runEvents.settled({ runId: graded.runId, userId: graded.trainee.id, scenarioId: graded.scenarioId });
      return graded;
    },
  );
};
