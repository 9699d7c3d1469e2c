import {
  caseFileResponseSchema,
  casefileRunParamsSchema,
  notesInputSchema,
  pinInputSchema,
  pinParamsSchema,
  runNotesResponseSchema,
  runPinResponseSchema,
  runPinsResponseSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { caseFileOf, notesOfRun, pinEvidence, saveNotesOfRun, unpinEvidence } from './casefile.service';

/**
 * The case file of a run (docs/architecture.md, "The case file"), under /api/runs/:id: the artifacts of the steps
 * the trainee reached, their notebook and their evidence board. Only the run's owner; 404 to anyone else.
 */
export const casefileRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/:id/case-file',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'getCaseFile',
        summary: "Read a run's case file",
        description:
          'Every artifact of the steps the trainee has reached on their own path, grouped by step in the order met, ' +
          'with the TLP and Admiralty marks the player showed (no key), the notebook and the evidence board. Only ' +
          "the run's owner; 404 to anyone else.",
        params: casefileRunParamsSchema,
        response: { 200: caseFileResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({ caseFile: await caseFileOf(db, currentUser(request), request.params.id) }),
  );

  app.get(
    '/:id/notes',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'getRunNotes',
        summary: "Read a run's notebook",
        description: "The trainee's own notes on the run. Private: 404 to anyone but the run's owner, admins included.",
        params: casefileRunParamsSchema,
        response: { 200: runNotesResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({ notes: await notesOfRun(db, currentUser(request), request.params.id) }),
  );

  app.put(
    '/:id/notes',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'saveRunNotes',
        summary: "Save a run's notebook",
        description:
          'Replaces the notebook with the text sent (an empty text clears it), in progress or after the run ended. ' +
          "400 for a text over the limit (nothing is saved); 404 to anyone but the run's owner.",
        params: casefileRunParamsSchema,
        body: notesInputSchema,
        response: { 200: runNotesResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      notes: await saveNotesOfRun(db, currentUser(request), request.params.id, request.body.text),
    }),
  );

  app.post(
    '/:id/pins',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'pinEvidence',
        summary: 'Pin an artifact or one of its lines',
        description:
          'Puts an artifact of a step the run has reached, or one line of it (from 1), on the evidence board; the ' +
          'quote is read on the server. 400 for a line the artifact does not have; 404 for a step not reached or ' +
          "someone else's run; 409 when it is already pinned or the board is full.",
        params: casefileRunParamsSchema,
        body: pinInputSchema,
        response: { 201: runPinResponseSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const pin = await pinEvidence(db, currentUser(request), request.params.id, request.body);
      return reply.status(201).send({ pin });
    },
  );

  app.delete(
    '/:id/pins/:pinId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['runs'],
        operationId: 'unpinEvidence',
        summary: 'Unpin from the evidence board',
        description:
          "Takes a pin off the board and answers with the pins left. 404 for no such pin or someone else's run.",
        params: pinParamsSchema,
        response: { 200: runPinsResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      pins: await unpinEvidence(db, currentUser(request), request.params.id, request.params.pinId),
    }),
  );
};
