import {
  RESERVED_SCENARIO_IDS,
  checkScenarioResponseSchema,
  checkScenarioText,
  deriveScenarioId,
  formatProblem,
  MAX_SCENARIO_FILE_BYTES,
  type CheckScenarioResponse,
  type ScenarioProblem,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { errorResponses } from '../../plugins/docs';
import { filePart, readUploadWithinLimit } from '../files/read-upload';
import { findScenarioStates } from './scenarios.repository';
import { displayFilename, readScenarioText, uploadRefused } from './scenarios.service';

const NO_FILE = { path: 'file', message: 'no file was sent; choose a scenario file (YAML or JSON)' };
const FILE = '(file)';

/** What an upload of these bytes would find, without storing anything. */
async function checkScenarioFile(db: Db, filename: string, bytes: Buffer): Promise<CheckScenarioResponse> {
  const answer = (
    problems: ScenarioProblem[],
    warnings: ScenarioProblem[],
    scenario: CheckScenarioResponse['scenario'],
  ) => ({
    filename,
    size: bytes.length,
    ok: problems.length === 0,
    problems: problems.map(formatProblem),
    issues: problems,
    warnings: warnings.map(formatProblem),
    scenario,
  });
  const read = readScenarioText(bytes);
  if ('problem' in read) return answer([read.problem], [], null);
  const checked = checkScenarioText(read.text);
  if (!checked.ok) return answer(checked.problems, checked.warnings, null);
  const id = checked.scenario.id ?? deriveScenarioId(checked.scenario.name);
  const problems: ScenarioProblem[] = [];
  const notes: string[] = [];
  const where = checked.scenario.id === undefined ? 'name' : 'id';
  // What the upload would do with the id: refuse a reserved or archived one (400, 409); make a new draft of a
  // scenario that exists (the admin then publishes it); publish a new one.
  const [state] = await findScenarioStates(db, [id]);
  if (RESERVED_SCENARIO_IDS.includes(id)) {
    problems.push({ path: where, message: `"${id}" is reserved by the application; give the file another ${where}` });
  } else if (state?.deleted_at) {
    problems.push({
      path: where,
      message: `a scenario with the id "${id}" existed and was deleted; give the file another ${where}`,
    });
  } else if (state) {
    notes.push(
      `the scenario "${id}" exists: an upload makes this file its draft, to publish from the editor; ` +
        'runs in progress keep their version',
    );
  }
  return answer(problems, [...notes.map((note) => ({ path: where, message: note })), ...checked.warnings], {
    id,
    name: checked.scenario.name,
    type: checked.scenario.type,
    difficulty: checked.scenario.difficulty,
    description: checked.scenario.description,
    stepCount: checked.scenario.steps.length,
  });
}

/**
 * "Check only" on the Upload screen: the upload's limits and checker on a file, nothing stored and nothing
 * audited (nothing changes). Registered under `/sim` beside the upload.
 */
export const checkOnlyRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/check-scenario',
    {
      config: {
        access: 'admin',
        upload: { maxBytes: MAX_SCENARIO_FILE_BYTES, description: 'The scenario file to check, YAML or JSON' },
      },
      schema: {
        tags: ['scenarios'],
        operationId: 'checkScenario',
        summary: 'Check a scenario file without publishing it',
        description:
          'Runs the checks of an upload on a file sent as multipart/form-data in the field `file` (YAML or JSON) and ' +
          'answers 200 with every problem (`problems`, `issues`) and warning, and `ok` when an upload would publish ' +
          'it (an archived or reserved id is a problem; an existing id becomes a draft, said in `warnings`). Nothing is stored. 400 when no file is sent; 413 as soon as it ' +
          'passes 1 MB.',
        consumes: ['multipart/form-data'],
        response: { 200: checkScenarioResponseSchema, ...errorResponses(400, 413) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw uploadRefused(400, [NO_FILE]);
      const part = await filePart(request, { limits: { fileSize: MAX_SCENARIO_FILE_BYTES } });
      if (!part || part.fieldname !== 'file') throw uploadRefused(400, [NO_FILE]);
      const bytes = await readUploadWithinLimit(part, request, reply);
      if (!bytes) throw uploadRefused(413, [{ path: FILE, message: 'is larger than 1 MB' }]);
      return checkScenarioFile(db, displayFilename(part.filename), bytes);
    },
  );
};
