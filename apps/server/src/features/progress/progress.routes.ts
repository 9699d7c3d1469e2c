import {
  NAVIGATOR_LAYER_FILENAME,
  navigatorLayerSchema,
  progressRunParamsSchema,
  progressUserParamsSchema,
  runReportSchema,
  runTimelineSchema,
  skillsQuerySchema,
  skillsSchema,
  TRAINING_PROGRESS_CSV_FILENAME,
  trainingProgressFilterSchema,
  trainingProgressPageSchema,
  trainingProgressQuerySchema,
  userProgressSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { CSV_CONTENT_TYPE, sendAttachment } from '../../plugins/downloads';
import { userProgress } from './progress.service';
import { runReport, runTimeline } from './run-report.service';
import { skills, skillsLayer } from './skills.service';
import { trainingProgressCsv, trainingProgressPage } from './training-progress.service';

/** Progress and reporting: the dashboard, Training Progress, after-action reports and the skill map. */
export const progressRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/user/:email',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['progress'],
        summary:
          'Everything the Progress Dashboard needs in one response: runs newest first with step counts, score %, ' +
          'result, timelines, summary and up to 3 recommended scenarios. Trainees: own email only (403); admins: anyone',
        params: progressUserParamsSchema,
        response: { 200: userProgressSchema },
      },
    },
    async (request) => userProgress(db, currentUser(request), request.params.email),
  );

  app.get(
    '/all',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['progress'],
        summary: "Training Progress: every user's runs; search by email or name, sort by user/training/score/result/status, paged in SQL",
        querystring: trainingProgressQuerySchema,
        response: { 200: trainingProgressPageSchema },
      },
    },
    async (request) => trainingProgressPage(db, request.query),
  );

  app.get(
    '/all.csv',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['progress'],
        summary: `${TRAINING_PROGRESS_CSV_FILENAME}: every run matching the search, newest first (audited)`,
        querystring: trainingProgressFilterSchema,
      },
    },
    async (request, reply) => {
      const body = await trainingProgressCsv(db, currentUser(request), request.query);
      return sendAttachment(reply, TRAINING_PROGRESS_CSV_FILENAME, CSV_CONTENT_TYPE, body);
    },
  );

  app.get(
    '/timeline/:runId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['progress'],
        summary: "A run's decisions in order with their feedback (owner or admin; 404 otherwise)",
        params: progressRunParamsSchema,
        response: { 200: runTimelineSchema },
      },
    },
    async (request) => runTimeline(db, currentUser(request), request.params.runId),
  );

  app.get(
    '/runs/:runId/report',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['progress'],
        summary: 'The after-action report of a run (owner or admin; 404 otherwise)',
        params: progressRunParamsSchema,
        response: { 200: runReportSchema },
      },
    },
    async (request) => runReport(db, currentUser(request), request.params.runId),
  );

  app.get(
    '/skills',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['progress'],
        summary: 'Answers and right answers per ATT&CK technique met: own by default; admins may pass userId or all=true',
        querystring: skillsQuerySchema,
        response: { 200: skillsSchema },
      },
    },
    async (request) => skills(db, currentUser(request), request.query),
  );

  app.get(
    '/skills/layer',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['progress'],
        summary: `The same skills as an ATT&CK Navigator layer file (format 4.5), downloaded as ${NAVIGATOR_LAYER_FILENAME}`,
        querystring: skillsQuerySchema,
        response: { 200: navigatorLayerSchema },
      },
    },
    async (request, reply) => {
      const layer = await skillsLayer(db, currentUser(request), request.query);
      return reply
        .header('content-disposition', `attachment; filename="${NAVIGATOR_LAYER_FILENAME}"`)
        .header('cache-control', 'no-store')
        .send(layer);
    },
  );
};
