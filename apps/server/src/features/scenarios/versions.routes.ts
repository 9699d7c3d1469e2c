import { Readable } from 'node:stream';
import {
  authoringListSchema,
  draftRevisionInputSchema,
  duplicateScenarioInputSchema,
  duplicatedScenarioSchema,
  MAX_SCENARIO_FILE_BYTES,
  newDraftScenarioInputSchema,
  newDraftScenarioSchema,
  okSchema,
  publishedVersionSchema,
  restoreVersionInputSchema,
  saveDraftInputSchema,
  savedDraftSchema,
  scenarioIdParamsSchema,
  versionDetailSchema,
  versionHistorySchema,
  versionParamsSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses, fileResponse } from '../../plugins/docs';
import { sendAttachment } from '../../plugins/downloads';
import {
  discardDraft,
  duplicateScenario,
  exportVersion,
  listForAuthoring,
  newDraftScenario,
  publishVersion,
  readDraft,
  readVersion,
  restoreVersion,
  saveDraft,
  versionHistory,
} from './versions.service';

// A draft body holds a definition of up to 1 MB (refused over that with 413 by the service) and its revision.
const DRAFT_BODY_LIMIT = 2 * MAX_SCENARIO_FILE_BYTES;

const STALE =
  '409 when the draft changed since the caller read it (`error` names who saved it and when; `currentRevision`).';

/** Scenario versions: drafts, publishing, history and restore (admins; every change audited). */
export const versionsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/authoring',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'listScenariosForAuthoring',
        summary: 'List scenarios to edit',
        description:
          'Every scenario not archived, draft-only ones included, with its current version number (null when only ' +
          'a draft exists) and its draft, by name.',
        response: { 200: authoringListSchema },
      },
    },
    async () => listForAuthoring(db),
  );

  app.post(
    '/drafts',
    {
      bodyLimit: DRAFT_BODY_LIMIT,
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'createScenarioDraft',
        summary: 'Start a new scenario as a draft',
        description:
          'A new scenario whose only version is a draft holding `definition` (saved even with problems; trainees do ' +
          "not see it until it is published). Its id is the definition's `id`, or derived from its name. 409 when " +
          'the id is taken (archived scenarios included); 413 over 1 MB. Audited.',
        body: newDraftScenarioInputSchema,
        response: { 201: newDraftScenarioSchema, ...errorResponses(400, 409, 413) },
      },
    },
    async (request, reply) => reply.status(201).send(await newDraftScenario(db, currentUser(request), request.body)),
  );

  app.get(
    '/:id/versions',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'listScenarioVersions',
        summary: 'List the versions of a scenario',
        description:
          'Every version, newest first, with its state (draft, published, superseded), what changed, who saved and ' +
          'published it; the current version and the draft. Archived scenarios too (`archived`).',
        params: scenarioIdParamsSchema,
        response: { 200: versionHistorySchema, ...errorResponses(404) },
      },
    },
    async (request) => versionHistory(db, request.params.id),
  );

  app.get(
    '/:id/versions/:number',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'getScenarioVersion',
        summary: 'Read a version',
        description: 'One version with its definition and what the scenario checker finds in it.',
        params: versionParamsSchema,
        response: { 200: versionDetailSchema, ...errorResponses(404) },
      },
    },
    async (request) => readVersion(db, request.params.id, request.params.number),
  );

  app.get(
    '/:id/versions/:number/export',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'exportScenarioVersion',
        summary: 'Download a version as YAML',
        description: 'The version as a scenario file (YAML), named `<id>-v<number>.yaml`.',
        params: versionParamsSchema,
        response: {
          200: fileResponse({
            mediaType: 'text/yaml',
            filename: '<id>-v<number>.yaml',
            description: 'The scenario file.',
          }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const file = await exportVersion(db, request.params.id, request.params.number);
      return sendAttachment(reply, {
        mediaType: 'text/yaml; charset=utf-8',
        filename: file.filename,
        body: Readable.from([file.text]),
      });
    },
  );

  app.post(
    '/:id/versions/:number/restore',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'restoreScenarioVersion',
        summary: 'Restore a version into the draft',
        description:
          'Copies the version into the draft, creating it (`revision` null) or replacing it (`revision` its current ' +
          `revision), and answers the draft. ${STALE} Audited.`,
        params: versionParamsSchema,
        body: restoreVersionInputSchema,
        response: { 200: versionDetailSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) =>
      restoreVersion(db, currentUser(request), request.params.id, request.params.number, request.body.revision),
  );

  app.get(
    '/:id/draft',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'getScenarioDraft',
        summary: 'Read the draft',
        description: 'The draft with its definition and what the checker finds; 404 when the scenario has none.',
        params: scenarioIdParamsSchema,
        response: { 200: versionDetailSchema, ...errorResponses(404) },
      },
    },
    async (request) => readDraft(db, request.params.id),
  );

  app.put(
    '/:id/draft',
    {
      bodyLimit: DRAFT_BODY_LIMIT,
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'saveScenarioDraft',
        summary: 'Save the draft',
        description:
          'Saves the draft even when the checker finds problems (they are answered). `revision` null starts the ' +
          "draft (409 when one exists); otherwise it must be the draft's current revision. " +
          `${STALE} 400 when the definition's id is not this scenario's; 413 over 1 MB. Audited.`,
        params: scenarioIdParamsSchema,
        body: saveDraftInputSchema,
        response: { 200: savedDraftSchema, ...errorResponses(400, 404, 409, 413) },
      },
    },
    async (request) => saveDraft(db, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/:id/draft',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'discardScenarioDraft',
        summary: 'Discard the draft',
        description:
          'Discards the draft at `revision`; a scenario never published goes with it. ' + `${STALE} Audited.`,
        params: scenarioIdParamsSchema,
        body: draftRevisionInputSchema,
        response: { 200: okSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await discardDraft(db, currentUser(request), request.params.id, request.body.revision);
      return { ok: true as const };
    },
  );

  app.post(
    '/:id/publish',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'publishScenarioDraft',
        summary: 'Publish the draft',
        description:
          'The draft at `revision` becomes the current version: new runs play it, runs in progress keep the version ' +
          'they started on, the previous version is superseded. 400 with every problem in `problems` (and `issues`) ' +
          `when the checker refuses it: nothing changes. ${STALE} Audited.`,
        params: scenarioIdParamsSchema,
        body: draftRevisionInputSchema,
        response: { 200: publishedVersionSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => publishVersion(db, currentUser(request), request.params.id, request.body.revision),
  );

  app.post(
    '/:id/duplicate',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'duplicateScenario',
        summary: 'Duplicate a scenario',
        description:
          'A new scenario whose draft copies the current version (or the draft when none is published), with the ' +
          'given id and name ("<name> (copy)" and an id derived from it by default). 409 when the id is taken. Audited.',
        params: scenarioIdParamsSchema,
        body: duplicateScenarioInputSchema,
        response: { 201: duplicatedScenarioSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await duplicateScenario(db, currentUser(request), request.params.id, request.body)),
  );
};
