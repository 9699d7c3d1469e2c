import {
  MAX_SCENARIO_FILE_BYTES,
  okSchema,
  scenarioDetailSchema,
  scenarioIdParamsSchema,
  scenarioCountSchema,
  scenarioListSchema,
  uploadScenarioResponseSchema,
} from '@tradecraft/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { filePart, readUploadWithinLimit } from '../files/read-upload';
import {
  countScenarios,
  deleteScenario,
  getScenarioFor,
  listScenarios,
  uploadRefused,
  uploadScenario,
  type UploadedScenarioFile,
} from './scenarios.service';

const NO_FILE = { path: 'file', message: 'no file was sent; choose a scenario file (YAML or JSON)' };

/**
 * The file from the multipart field `file`. The per-request limit stops reading at 1 MB: a larger file is
 * refused with 413 as soon as it passes 1 MB, without ever being held whole.
 */
async function uploadedScenarioFile(request: FastifyRequest, reply: FastifyReply): Promise<UploadedScenarioFile> {
  if (!request.isMultipart()) throw uploadRefused(400, [NO_FILE]);
  const part = await filePart(request, { limits: { fileSize: MAX_SCENARIO_FILE_BYTES } });
  if (!part || part.fieldname !== 'file') throw uploadRefused(400, [NO_FILE]);
  const bytes = await readUploadWithinLimit(part, request, reply);
  if (!bytes) throw uploadRefused(413, [{ path: '(file)', message: 'is larger than 1 MB' }]);
  return { filename: part.filename, bytes };
}

export const scenariosRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/list',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['scenarios'],
        operationId: 'listScenarios',
        summary: 'List scenarios',
        description:
          'Every published scenario with its step count and ATT&CK techniques; `recommended` when it matches the ' +
          'platform difficulty; `progress` says where the caller stands with it (run in progress and its step, best ' +
          'completed score); `startHere` marks the tutorial for a caller with no runs.',
        response: { 200: scenarioListSchema },
      },
    },
    async (request) => ({ scenarios: await listScenarios(db, currentUser(request)) }),
  );

  app.get(
    '/list/count',
    {
      config: { access: 'signedIn', beforeSecondFactor: true },
      schema: {
        tags: ['scenarios'],
        operationId: 'countScenarios',
        summary: 'Count scenarios',
        description:
          'How many scenarios the list holds, without the list (the bell shows when new ones were published).',
        response: { 200: scenarioCountSchema },
      },
    },
    async () => ({ count: await countScenarios(db) }),
  );

  app.get(
    '/:id',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['scenarios'],
        operationId: 'getScenario',
        summary: 'Read a scenario',
        description:
          'One scenario: whole for admins (view `admin`); its card only for trainees (name, type, difficulty, description, sources, step count).',
        params: scenarioIdParamsSchema,
        response: { 200: scenarioDetailSchema, ...errorResponses(404) },
      },
    },
    async (request) => getScenarioFor(db, currentUser(request), request.params.id),
  );

  const removeScenario = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    await deleteScenario(db, currentUser(request), request.params.id);
    return { ok: true as const };
  };
  app.delete(
    '/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'deleteScenario',
        summary: 'Delete a scenario',
        description:
          'Deletes a scenario: kept for past runs and their reports, hidden everywhere else (audited). ' +
          '`DELETE /api/sim/delete-scenario/{id}`, the older address, still does the same for one release.',
        params: scenarioIdParamsSchema,
        response: { 200: okSchema, ...errorResponses(404) },
      },
    },
    removeScenario,
  );
  // The older address, whose shape met /api/sim/{id}/... (docs/interoperability.md): kept out of the document.
  app.delete(
    '/delete-scenario/:id',
    {
      config: { access: 'admin' },
      schema: { hide: true, params: scenarioIdParamsSchema, response: { 200: okSchema, ...errorResponses(404) } },
    },
    removeScenario,
  );

  app.post(
    '/upload-scenario',
    {
      config: {
        access: 'admin',
        upload: { maxBytes: MAX_SCENARIO_FILE_BYTES, description: 'The scenario file, YAML or JSON' },
      },
      schema: {
        tags: ['scenarios'],
        operationId: 'uploadScenario',
        summary: 'Publish a scenario',
        description:
          'Upload a scenario file as multipart/form-data in the field `file` (YAML or JSON; audited). 400 lists ' +
          'every problem in `problems` (and `issues`); 409 when its id is taken; 413 as soon as it passes 1 MB.',
        consumes: ['multipart/form-data'],
        response: { 201: uploadScenarioResponseSchema, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const admin = currentUser(request);
      const file = await uploadedScenarioFile(request, reply);
      return reply.status(201).send(await uploadScenario(db, admin, file));
    },
  );
};
