import {
  MAX_STIX_FILE_BYTES,
  STIX_MESSAGES,
  scenarioIdParamsSchema,
  stixExportQuerySchema,
  stixImportResponseSchema,
} from '@tradecraft/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError, badRequest } from '../../errors';
import { currentUser } from '../../plugins/access';
import { errorResponses, fileResponse } from '../../plugins/docs';
import { filePart, readUploadWithinLimit } from '../files/read-upload';
import { displayFilename } from '../scenarios/scenarios.service';
import { exportStixBundle, importStixBundle } from './interop.service';

/** The media type STIX 2.1 registers for its JSON serialisation. */
const STIX_MEDIA_TYPE = 'application/stix+json;version=2.1';

/** STIX 2.1 and Attack Flow in and out of the scenario library (docs/interoperability.md). */
export const interopRoutes: FastifyPluginAsyncZod<{ db: Db; publicOrigin: string }> = async (
  app,
  { db, publicOrigin },
) => {
  const importBundle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.isMultipart()) throw badRequest(STIX_MESSAGES.noFile);
    const part = await filePart(request, { limits: { fileSize: MAX_STIX_FILE_BYTES } });
    if (!part || part.fieldname !== 'file') throw badRequest(STIX_MESSAGES.noFile);
    const bytes = await readUploadWithinLimit(part, request, reply);
    if (!bytes) throw new AppError(413, STIX_MESSAGES.tooLarge);
    const imported = await importStixBundle(db, currentUser(request), {
      filename: displayFilename(part.filename),
      bytes,
    });
    return reply.status(201).send(imported);
  };
  const upload = {
    maxBytes: MAX_STIX_FILE_BYTES,
    description: 'A STIX 2.1 bundle (JSON), a threat report or an Attack Flow',
  };
  app.post(
    '/import-stix',
    {
      config: { access: 'admin', upload },
      schema: {
        tags: ['scenarios'],
        operationId: 'importStixBundle',
        summary: 'Import a STIX 2.1 bundle as a draft',
        description:
          'Makes a draft-only scenario from a STIX 2.1 bundle sent as multipart/form-data in the field `file` (audited): ' +
          'a report, intrusion set or threat actor gives the name, description and sources; attack patterns with ATT&CK ' +
          'ids (or CAPEC ids ATT&CK lists) give steps; indicators, malware, tools and infrastructure give artifacts, ' +
          'each with the strictest TLP marking of what it holds; an Attack Flow 2.0 bundle gives a branching skeleton. ' +
          "MITRE's ATT&CK collections are read as published: the newest version of a repeated id, types the import " +
          'does not read skipped. `summary.kept` says what the draft holds and `summary.notMapped` what it does not. ' +
          '400 with `problems` (at most 50, one per object) when the file is not a valid bundle, or is an Attack Flow ' +
          'Builder file; 413 past 5 MB. `POST /api/sim/import/stix`, the older address, still does the same for one release.',
        consumes: ['multipart/form-data'],
        response: { 201: stixImportResponseSchema, ...errorResponses(409) },
      },
    },
    importBundle,
  );
  // The older address, whose shape met /api/sim/{id}/stix (docs/interoperability.md): kept out of the document.
  app.post(
    '/import/stix',
    {
      config: { access: 'admin', upload },
      schema: { hide: true, response: { 201: stixImportResponseSchema, ...errorResponses(409) } },
    },
    importBundle,
  );

  app.get(
    '/:id/stix',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['scenarios'],
        operationId: 'exportStixBundle',
        summary: 'Export a scenario as STIX 2.1',
        description:
          "A scenario version's intelligence as a STIX 2.1 bundle (report, attack patterns, indicators, identity, TLP " +
          'markings), valid against the OASIS schemas: the current version, or `version`. 404 for no such scenario or ' +
          'version; 409 for a draft that does not pass the checker. Audited.',
        params: scenarioIdParamsSchema,
        querystring: stixExportQuerySchema,
        response: {
          200: fileResponse({
            mediaType: STIX_MEDIA_TYPE,
            description: 'The STIX 2.1 bundle, downloaded as `<id>-v<number>.stix.json`.',
            schema: z.object({
              type: z.literal('bundle'),
              id: z.string(),
              objects: z.array(z.record(z.string(), z.unknown())),
            }),
          }),
          ...errorResponses(404, 409),
        },
      },
    },
    async (request, reply) => {
      const { filename, bundle } = await exportStixBundle(
        db,
        currentUser(request),
        request.params.id,
        publicOrigin,
        request.query.version,
      );
      // Bytes, so the media type leaves exactly as STIX registers it (Fastify would rewrite a type it serializes).
      return reply
        .header('content-type', STIX_MEDIA_TYPE)
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(JSON.stringify(bundle)));
    },
  );
};
