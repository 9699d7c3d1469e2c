import { Readable } from 'node:stream';
import {
  certificateListSchema,
  choicesQuerySchema,
  choicesSchema,
  certificateSchema,
  cohortDetailSchema,
  cohortListQuerySchema,
  cohortListSchema,
  cohortSummarySchema,
  coverageSchema,
  createAssignmentSchema,
  createCohortSchema,
  createdAssignmentsSchema,
  itemAnalysisQuerySchema,
  itemAnalysisSchema,
  memberChangeSchema,
  memberIdsSchema,
  myAssignmentsSchema,
  navigatorLayerSchema,
  NAVIGATOR_LAYER_FILENAME,
  okSchema,
  pathDetailSchema,
  pathInputSchema,
  pathListQuerySchema,
  pathListSchema,
  programmeIdParamsSchema,
  remediationParamsSchema,
  remediationSchema,
  traineeSearchQuerySchema,
  traineeSearchSchema,
  updateCohortSchema,
  updatePathSchema,
  verificationSchema,
  verifyCodeParamsSchema,
} from '@tradecraft/shared';
import Papa from 'papaparse';
import type { FastifySchema } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { currentUser, type Access } from '../../plugins/access';
import { errorResponses, fileResponse } from '../../plugins/docs';
import { sendAttachment } from '../../plugins/downloads';
import {
  cohortCoverage,
  cohortCsvRows,
  cohortDetail,
  cohortLayer,
  COHORT_CSV_HEADER,
  itemAnalysis,
  remediation,
} from './analytics.service';
import { certificatePdf } from './certificate-pdf';
import { checkDueAssignments, startNoticeChecks } from './notices.service';
import {
  awardCertificates,
  cancel,
  changeCohort,
  changeMembers,
  changePath,
  cohortList,
  createAssignments,
  createCohort,
  createPath,
  findScenarioChoices,
  findTrainees,
  myAssignments,
  myCertificates,
  pathCertificates,
  pathDetail,
  pathList,
  readableCertificate,
  certificateScenarios,
  revoke,
  verify,
} from './programmes.service';

const tags = ['programmes'];
/** A route's options: who may call it (plugins/access.ts) and its OpenAPI description under the programmes tag. */
const routeOptions = <const S extends FastifySchema>(access: Access, schema: S) => ({
  config: { access },
  schema: { tags, ...schema },
});
const noticeCheckSchema = z.object({
  dueSoon: z.number().int(),
  overdue: z.number().int(),
  overdueAdmin: z.number().int(),
});

/**
 * Training programmes (docs/programmes.md): cohorts, learning paths, assignments, certificates, remediation and
 * instructor analytics. Admins manage everything; trainees read their own assignments, paths and certificates;
 * anyone may verify a certificate by its code. The due-date check runs every minute while the app is up.
 */
export const programmesRoutes: FastifyPluginAsyncZod<{ db: Db; noticeChecks?: boolean }> = async (
  app,
  { db, noticeChecks = true },
) => {
  if (noticeChecks) {
    let stop: (() => void) | undefined;
    app.addHook('onReady', async () => {
      stop = startNoticeChecks(db, app.log);
    });
    app.addHook('onClose', async () => stop?.());
  }
  // The run that completes a learning path earns its certificate as it ends (plugins/run-events.ts).
  const stopListening = app.runEvents.onSettled(({ userId, scenarioId }) => awardCertificates(db, userId, scenarioId));
  app.addHook('onClose', async () => stopListening());

  // ---- Cohorts ----
  app.get(
    '/cohorts',
    routeOptions('admin', {
      operationId: 'listCohorts',
      summary: 'List cohorts',
      description:
        'A page of cohorts by name (`page`, `pageSize` up to 100) with their member and assignment counts; `search` ' +
        'keeps the names holding it (ignoring case); the archived ones too when asked. The total is counted as far as ' +
        'the pager needs (`totalIsLowerBound`: there are more).',
      querystring: cohortListQuerySchema,
      response: { 200: cohortListSchema, ...errorResponses(400) },
    }),
    async (request) => cohortList(db, request.query),
  );

  app.post(
    '/cohorts',
    routeOptions('admin', {
      operationId: 'createCohort',
      summary: 'Create a cohort',
      description: 'A new, empty cohort (audited).',
      body: createCohortSchema,
      response: { 201: cohortSummarySchema },
    }),
    async (request, reply) => reply.code(201).send(await createCohort(db, currentUser(request), request.body.name)),
  );

  app.get(
    '/cohorts/trainees',
    routeOptions('admin', {
      operationId: 'searchTrainees',
      summary: 'Find trainees to add',
      description: 'Active trainees whose name or email contains the search (at most 50; `more` when there are more).',
      querystring: traineeSearchQuerySchema,
      response: { 200: traineeSearchSchema },
    }),
    async (request) => findTrainees(db, request.query.search),
  );

  app.get(
    '/cohorts/:id',
    routeOptions('admin', {
      operationId: 'getCohort',
      summary: 'A cohort with its matrix',
      description:
        'Members, assignments, the trainees x assignments matrix (status and best score) and who is overdue.',
      params: programmeIdParamsSchema,
      response: { 200: cohortDetailSchema, ...errorResponses(404) },
    }),
    async (request) => cohortDetail(db, request.params.id),
  );

  app.patch(
    '/cohorts/:id',
    routeOptions('admin', {
      operationId: 'updateCohort',
      summary: 'Rename, archive or restore a cohort',
      description:
        "Renames it and/or archives (true) or restores (false) it (audited). An archived cohort's assignments leave its trainees' lists.",
      params: programmeIdParamsSchema,
      body: updateCohortSchema,
      response: { 200: cohortSummarySchema, ...errorResponses(404) },
    }),
    async (request) => changeCohort(db, currentUser(request), request.params.id, request.body),
  );

  for (const change of ['add', 'remove'] as const) {
    app.post(
      `/cohorts/:id/members/${change}`,
      routeOptions('admin', {
        operationId: change === 'add' ? 'addCohortMembers' : 'removeCohortMembers',
        summary: change === 'add' ? 'Add trainees to a cohort' : 'Remove trainees from a cohort',
        description:
          change === 'add'
            ? 'Adds these trainees (members already in stay); every id must be a trainee, or nothing is added (audited).'
            : 'Removes these users from the cohort; ids that are not members are ignored (audited).',
        params: programmeIdParamsSchema,
        body: memberIdsSchema,
        response: { 200: memberChangeSchema, ...errorResponses(404) },
      }),
      async (request) => changeMembers(db, currentUser(request), request.params.id, request.body.userIds, change),
    );
  }

  app.get(
    '/cohorts/:id/matrix.csv',
    routeOptions('admin', {
      operationId: 'exportCohortCsv',
      summary: "Export a cohort's matrix as CSV",
      description: 'One row per trainee and assignment: status and best score (UTF-8 with a byte-order mark; audited).',
      params: programmeIdParamsSchema,
      response: {
        200: fileResponse({
          mediaType: 'text/csv; charset=utf-8',
          filename: 'cohort.csv',
          description: 'The CSV file.',
        }),
        ...errorResponses(404),
      },
    }),
    async (request, reply) => {
      const rows = await cohortCsvRows(db, currentUser(request), request.params.id);
      const text = `\uFEFF${Papa.unparse([COHORT_CSV_HEADER, ...rows])}\r\n`;
      return sendAttachment(reply, {
        mediaType: 'text/csv; charset=utf-8',
        filename: 'cohort.csv',
        body: Readable.from([text]),
      });
    },
  );

  app.get(
    '/cohorts/:id/coverage',
    routeOptions('admin', {
      operationId: 'getCohortCoverage',
      summary: "A cohort's ATT&CK coverage",
      description: "First answers and right answers per technique over the runs of the cohort's members (the heatmap).",
      params: programmeIdParamsSchema,
      response: { 200: coverageSchema, ...errorResponses(404) },
    }),
    async (request) => {
      const { name: _name, ...coverage } = await cohortCoverage(db, request.params.id);
      return coverage;
    },
  );

  app.get(
    '/cohorts/:id/layer',
    routeOptions('admin', {
      operationId: 'exportCohortLayer',
      summary: "A cohort's coverage as a Navigator layer",
      description: `The coverage as an ATT&CK Navigator layer (format 4.5), downloaded as ${NAVIGATOR_LAYER_FILENAME}.`,
      params: programmeIdParamsSchema,
      response: {
        200: fileResponse({
          mediaType: 'application/json',
          filename: NAVIGATOR_LAYER_FILENAME,
          description: 'The layer file.',
          schema: navigatorLayerSchema,
        }),
        ...errorResponses(404),
      },
    }),
    async (request, reply) => {
      const layer = await cohortLayer(db, request.params.id);
      return reply
        .header('content-disposition', `attachment; filename="${NAVIGATOR_LAYER_FILENAME}"`)
        .header('cache-control', 'no-store')
        .send(layer);
    },
  );

  // ---- Assignments ----
  app.get(
    '/assignments/scenario-choices',
    routeOptions('admin', {
      operationId: 'listScenarioChoices',
      summary: 'Scenarios to assign or pick',
      description:
        'The first 20 published scenarios by name whose name holds `search` (ignoring case; empty: the first 20), ' +
        'for the pickers; `more` when more match.',
      querystring: choicesQuerySchema,
      response: { 200: choicesSchema, ...errorResponses(400) },
    }),
    async (request) => findScenarioChoices(db, request.query.search),
  );

  app.post(
    '/assignments',
    routeOptions('admin', {
      operationId: 'createAssignments',
      summary: 'Assign a scenario or a learning path',
      description:
        'To a cohort (one assignment, for whoever is a member) or to trainees (one each), with an optional due date ' +
        '(in the future) and note. The trainees are notified; audited.',
      body: createAssignmentSchema,
      response: { 201: createdAssignmentsSchema, ...errorResponses(404) },
    }),
    async (request, reply) =>
      reply
        .code(201)
        .send(await createAssignments(db, currentUser(request), { ...request.body, note: request.body.note })),
  );

  app.delete(
    '/assignments/:id',
    routeOptions('admin', {
      operationId: 'cancelAssignment',
      summary: 'Cancel an assignment',
      description: "It leaves its trainees' lists and the cohort matrix (audited).",
      params: programmeIdParamsSchema,
      response: { 200: okSchema, ...errorResponses(404) },
    }),
    async (request) => {
      await cancel(db, currentUser(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/assignments/mine',
    routeOptions('signedIn', {
      operationId: 'listMyAssignments',
      summary: 'My assignments',
      description:
        "The caller's assignments (their own and their cohorts'), with status, progress and where to start or resume.",
      response: { 200: myAssignmentsSchema },
    }),
    async (request) => myAssignments(db, currentUser(request)),
  );

  app.post(
    '/assignments/check-due',
    routeOptions('admin', {
      operationId: 'checkDueAssignments',
      summary: 'Run the due-date check now',
      description:
        'What the server does every minute: due-soon and overdue notices, each sent once. Answers how many went out.',
      response: { 200: noticeCheckSchema },
    }),
    async () => checkDueAssignments(db),
  );

  // ---- Learning paths ----
  app.get(
    '/paths',
    routeOptions('signedIn', {
      operationId: 'listPaths',
      summary: 'List learning paths',
      description:
        'A page of learning paths by name (`page`, `pageSize` up to 100), `search` keeping the names holding it ' +
        '(ignoring case); admins may ask for the archived ones too. The total is counted as far as the pager needs.',
      querystring: pathListQuerySchema,
      response: { 200: pathListSchema, ...errorResponses(400) },
    }),
    async (request) => pathList(db, currentUser(request), request.query),
  );

  app.post(
    '/paths',
    routeOptions('admin', {
      operationId: 'createPath',
      summary: 'Create a learning path',
      description:
        'Published scenarios in order; `sequential` opens each when the one before is passed, `open` opens all (audited).',
      body: pathInputSchema,
      response: { 201: pathDetailSchema, ...errorResponses(404) },
    }),
    async (request, reply) => reply.code(201).send(await createPath(db, currentUser(request), request.body)),
  );

  app.get(
    '/paths/:id',
    routeOptions('signedIn', {
      operationId: 'getPath',
      summary: 'A learning path with my progress',
      description:
        "Its steps with the caller's state on each; the caller's certificate is issued the first time every step is passed.",
      params: programmeIdParamsSchema,
      response: { 200: pathDetailSchema, ...errorResponses(404) },
    }),
    async (request) => pathDetail(db, currentUser(request), request.params.id),
  );

  app.patch(
    '/paths/:id',
    routeOptions('admin', {
      operationId: 'updatePath',
      summary: 'Change a learning path',
      description:
        'Name, description, unlock rule, scenarios (added, removed, reordered), archived (audited). With `revision`, ' +
        '409 when the path changed since that revision. Certificates already issued stay valid.',
      params: programmeIdParamsSchema,
      body: updatePathSchema,
      response: { 200: pathDetailSchema, ...errorResponses(404, 409) },
    }),
    async (request) => changePath(db, currentUser(request), request.params.id, request.body),
  );

  app.get(
    '/paths/:id/certificates',
    routeOptions('admin', {
      operationId: 'listPathCertificates',
      summary: 'Certificates of a path',
      description: 'Every certificate issued for the path, newest first.',
      params: programmeIdParamsSchema,
      response: { 200: certificateListSchema, ...errorResponses(404) },
    }),
    async (request) => pathCertificates(db, request.params.id),
  );

  // ---- Certificates ----
  app.get(
    '/certificates/mine',
    routeOptions('signedIn', {
      operationId: 'listMyCertificates',
      summary: 'My certificates',
      description: "The caller's certificates, newest first.",
      response: { 200: certificateListSchema },
    }),
    async (request) => myCertificates(db, currentUser(request)),
  );

  app.get(
    '/certificates/:id/pdf',
    routeOptions('signedIn', {
      operationId: 'downloadCertificate',
      summary: 'A certificate as PDF',
      description:
        'The holder (or an admin) downloads it; it names the holder, the path, the date and its verification link.',
      params: programmeIdParamsSchema,
      response: {
        200: fileResponse({ mediaType: 'application/pdf', filename: 'certificate.pdf', description: 'The PDF.' }),
        ...errorResponses(404),
      },
    }),
    async (request, reply) => {
      const row = await readableCertificate(db, currentUser(request), request.params.id);
      const body = await certificatePdf({
        holderName: row.holder_name,
        pathName: row.path_name,
        issuedAt: row.issued_at,
        verifyUrl: `${app.config.publicOrigin}/verify/${row.code}`,
        revoked: row.revoked_at !== null,
        scenarios: await certificateScenarios(db, row),
      });
      return sendAttachment(reply, {
        mediaType: 'application/pdf',
        filename: 'certificate.pdf',
        body: Readable.from([body]),
      });
    },
  );

  app.post(
    '/certificates/:id/revoke',
    routeOptions('admin', {
      operationId: 'revokeCertificate',
      summary: 'Revoke a certificate',
      description: 'Its verification page says revoked from now on (audited).',
      params: programmeIdParamsSchema,
      response: { 200: certificateSchema, ...errorResponses(404) },
    }),
    async (request) => revoke(db, currentUser(request), request.params.id),
  );

  app.get(
    '/verify/:code',
    routeOptions('public', {
      operationId: 'verifyCertificate',
      summary: 'Verify a certificate',
      description: 'Without signing in: genuine (with holder, path and date), revoked (with when) or unknown.',
      params: verifyCodeParamsSchema,
      response: { 200: verificationSchema },
    }),
    async (request) => verify(db, request.params.code),
  );

  // ---- Remediation and item analysis ----
  app.get(
    '/remediation/mine',
    routeOptions('signedIn', {
      operationId: 'getMyRemediation',
      summary: 'What I should practise',
      description: "The caller's weakest techniques and skills and the published scenarios that train them.",
      response: { 200: remediationSchema },
    }),
    async (request) => remediation(db, currentUser(request), currentUser(request).id),
  );

  app.get(
    '/remediation/:userId',
    routeOptions('admin', {
      operationId: 'getRemediation',
      summary: 'What a trainee should practise',
      description: "A trainee's weakest techniques and skills and the published scenarios that train them.",
      params: remediationParamsSchema,
      response: { 200: remediationSchema, ...errorResponses(404) },
    }),
    async (request) => remediation(db, currentUser(request), request.params.userId),
  );

  app.get(
    '/item-analysis/:id',
    routeOptions('admin', {
      operationId: 'getItemAnalysis',
      summary: 'Item analysis of a scenario version',
      description:
        'Per step of one version (`version`, by default the newest with runs; `versions` lists them with run counts): runs that reached it, first answers, mean first-answer credit, option choices, discrimination ' +
        'index (top vs bottom 27 % of finished runs by score), median time; most attention first.',
      params: programmeIdParamsSchema,
      querystring: itemAnalysisQuerySchema,
      response: { 200: itemAnalysisSchema, ...errorResponses(404) },
    }),
    async (request) => itemAnalysis(db, request.params.id, request.query.version),
  );
};
