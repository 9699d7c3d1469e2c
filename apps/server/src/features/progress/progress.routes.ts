import {
  NAVIGATOR_LAYER_FILENAME,
  navigatorLayerSchema,
  progressRunParamsSchema,
  progressUserParamsSchema,
  runReportSchema,
  runTimelineSchema,
  skillsQuerySchema,
  skillsSchema,
  trainingProgressFilterSchema,
  trainingProgressPageSchema,
  trainingProgressQuerySchema,
  userProgressSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses, fileResponse } from '../../plugins/docs';
import { userProgress } from './progress.service';
import { runReport, runTimeline } from './run-report.service';
import { skills, skillsLayer } from './skills.service';
import { sendAttachment, SPREADSHEET_MEDIA_TYPES } from '../../plugins/downloads';
import { exportTrainingProgress, TRAINING_PROGRESS_FILENAMES, trainingProgressPage } from './training-progress.service';

/** Progress and reporting: the dashboard, Training Progress, after-action reports and the skill map. */
export const progressRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/user/:email',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['progress'],
        operationId: 'getUserProgress',
        summary: 'A user’s progress',
        description:
          'Everything the Progress Dashboard needs in one response: runs newest first with step counts, score %, ' +
          'result, timelines, summary and up to 3 recommended scenarios. Trainees: own email only (403); admins: ' +
          'anyone (404 for no such user).',
        params: progressUserParamsSchema,
        response: { 200: userProgressSchema, ...errorResponses(403, 404) },
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
        operationId: 'listTrainingProgress',
        summary: 'List every user’s runs',
        description:
          "Training Progress: every user's runs, searched by email or name, sorted by user, training, score, result " +
          'or status, and paged.',
        querystring: trainingProgressQuerySchema,
        response: { 200: trainingProgressPageSchema },
      },
    },
    async (request) => trainingProgressPage(db, request.query),
  );

  for (const format of ['csv', 'xlsx'] as const) {
    const filename = TRAINING_PROGRESS_FILENAMES[format];
    const mediaType = SPREADSHEET_MEDIA_TYPES[format];
    app.get(
      `/all.${format}`,
      {
        config: { access: 'admin' },
        schema: {
          tags: ['progress'],
          operationId: format === 'csv' ? 'exportTrainingProgressCsv' : 'exportTrainingProgressXlsx',
          summary: `Export training progress as ${format.toUpperCase()}`,
          description:
            `${filename}: every run matching the search, newest first` +
            `${format === 'csv' ? ' (UTF-8 with a byte-order mark)' : ''}; audited.`,
          querystring: trainingProgressFilterSchema,
          response: { 200: fileResponse({ mediaType, filename, description: `The ${format.toUpperCase()} file.` }) },
        },
      },
      async (request, reply) => {
        const body = await exportTrainingProgress(db, currentUser(request), request.query, format);
        return sendAttachment(reply, { mediaType, filename, body });
      },
    );
  }

  app.get(
    '/timeline/:runId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['progress'],
        operationId: 'getRunTimeline',
        summary: 'A run’s decisions',
        description: "A run's decisions in order with their feedback (its owner or an admin; 404 otherwise).",
        params: progressRunParamsSchema,
        response: { 200: runTimelineSchema, ...errorResponses(404) },
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
        operationId: 'getRunReport',
        summary: 'A run’s after-action report',
        description: 'The after-action report of a run (its owner or an admin; 404 otherwise).',
        params: progressRunParamsSchema,
        response: { 200: runReportSchema, ...errorResponses(404) },
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
        operationId: 'getSkills',
        summary: 'ATT&CK skills',
        description:
          'Answers and right answers per ATT&CK technique met: your own by default; admins may pass `userId` or ' +
          '`all=true` (403 for anyone else; 404 for no such user).',
        querystring: skillsQuerySchema,
        response: { 200: skillsSchema, ...errorResponses(403, 404) },
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
        operationId: 'exportSkillsLayer',
        summary: 'ATT&CK skills as a Navigator layer',
        description: `The same skills as an ATT&CK Navigator layer file (format 4.5), downloaded as ${NAVIGATOR_LAYER_FILENAME}.`,
        querystring: skillsQuerySchema,
        response: {
          200: fileResponse({
            mediaType: 'application/json',
            filename: NAVIGATOR_LAYER_FILENAME,
            description: 'The layer file.',
            schema: navigatorLayerSchema,
          }),
          ...errorResponses(403, 404),
        },
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
