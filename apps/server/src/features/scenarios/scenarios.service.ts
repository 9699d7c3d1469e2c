import { createHash } from 'node:crypto';
import {
  checkScenarioText,
  deriveScenarioId,
  formatProblem,
  hasRole,
  MAX_SCENARIO_FILE_BYTES,
  RESERVED_SCENARIO_IDS,
  UPLOAD_MESSAGES,
  type AdminScenario,
  type ScenarioDefinition,
  type ScenarioDetail,
  type ScenarioListItem,
  type ScenarioProgress,
  TUTORIAL_SCENARIO_ID,
  type ScenarioProblem,
  type TraineeScenario,
  type UploadScenarioResponse,
} from '@tradecraft/shared';
import { nowIso } from '../../clock';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import type { Scenario, User } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { saveFile } from '../files/files.service';
import { scenarioTechniques } from '../progress/progress.service';
import { parseStoredDefinition, runFigures } from '../runs/run-figures';
import { difficultyFromSetting } from '../settings/settings.service';
import {
  findActiveScenario,
  findScenarioDefinitions,
  insertScenario,
  countActiveScenarios,
  listActiveScenarios,
  listPickerRuns,
  softDeleteScenario,
  type PickerRunRow,
  type ScenarioListRow,
} from './scenarios.repository';
import { findScenarioRow } from './versions.repository';
import { publishDefinition, uploadAsDraft } from './versions.service';
import { BoundedMap } from '../../bounded-map';

const CONFIGURATOR_SCREEN = 'Scenario Configurator';
const UPLOAD_SCREEN = 'Upload Scenario';

export async function countScenarios(db: Db): Promise<number> {
  return countActiveScenarios(db);
}

// The techniques of a scenario change only with its content: kept by id and content hash, so a list reads the
// definitions of new or changed scenarios only.
const TECHNIQUES_KEPT = 5000;
const techniquesByContent = new BoundedMap<string, string[]>(TECHNIQUES_KEPT);
const contentKey = (row: Pick<ScenarioListRow, 'id' | 'content_hash'>) => `${row.id}\u0000${row.content_hash}`;

async function techniquesOf(db: Db, rows: readonly ScenarioListRow[]): Promise<Map<string, string[]>> {
  const missing = rows.filter((row) => !techniquesByContent.has(contentKey(row)));
  if (missing.length > 0) {
    const definitions = new Map(
      (
        await findScenarioDefinitions(
          db,
          missing.map((row) => row.id),
        )
      ).map((row) => [row.id, row.definition]),
    );
    for (const row of missing)
      techniquesByContent.set(contentKey(row), [...scenarioTechniques(definitions.get(row.id) ?? '{}')].sort());
  }
  return new Map(rows.map((row) => [row.id, techniquesByContent.get(contentKey(row)) ?? []]));
}

/** Where a user stands with each scenario they have played, from their picker runs (one query). */
function progressByScenario(runs: readonly PickerRunRow[]): Map<string, ScenarioProgress> {
  const progress = new Map<string, ScenarioProgress>();
  const entry = (scenarioId: string) => {
    const known = progress.get(scenarioId) ?? { inProgress: null, best: null, completedRuns: 0 };
    progress.set(scenarioId, known);
    return known;
  };
  for (const run of runs) {
    // A run in progress, or an ended run with no later run: Start Simulation continues it (resumable).
    const resumable =
      run.status === 'in_progress' || (run.status === 'ended' && run.started_at === run.latest_started_at);
    if (resumable) {
      entry(run.scenario_id).inProgress = { runId: run.id, step: run.answered_visits - run.visit_submitted + 1 };
    } else if (run.status === 'completed') {
      const figures = runFigures(run);
      const known = entry(run.scenario_id);
      known.best = { runId: run.id, scorePercent: figures.scorePercent, result: figures.result };
      known.completedRuns = run.runs_with_status;
    }
  }
  return progress;
}

const NOT_STARTED: ScenarioProgress = { inProgress: null, best: null, completedRuns: 0 };

/**
 * The picker's list for one user: every published scenario with its techniques and where the user stands with
 * it (in progress at which step, best completed score). A fixed number of queries however many scenarios and
 * runs there are. A user with no runs at all is shown the tutorial first.
 */
export async function listScenarios(db: Db, user: Pick<User, 'id'>): Promise<ScenarioListItem[]> {
  const [rows, runs] = await Promise.all([listActiveScenarios(db), listPickerRuns(db, user.id)]);
  const techniques = await techniquesOf(db, rows);
  const progress = progressByScenario(runs);
  const newTrainee = runs.length === 0;
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    difficulty: row.difficulty,
    description: row.description,
    stepCount: row.step_count,
    recommended: row.difficulty === difficultyFromSetting(row.platform_difficulty),
    startHere: newTrainee && row.id === TUTORIAL_SCENARIO_ID,
    techniques: techniques.get(row.id) ?? [],
    publishedAt: row.created_at,
    progress: progress.get(row.id) ?? NOT_STARTED,
  }));
}

/** `scenarios.definition` holds the checked scenario as JSON (the run engine reads the same column). */
export function definitionOf(scenario: Scenario): ScenarioDefinition {
  return (
    parseStoredDefinition(scenario.definition) ?? {
      name: scenario.name,
      type: scenario.type,
      difficulty: scenario.difficulty,
      description: scenario.description,
      steps: [],
    }
  );
}

/** Admins see the whole scenario; everyone else its card (see traineeView). */
export async function getScenarioFor(db: Db, user: User, id: string): Promise<ScenarioDetail> {
  const scenario = await findActiveScenario(db, id);
  if (!scenario) throw notFound('No such scenario.');
  return hasRole(user.role, 'admin') ? adminView(scenario) : traineeView(scenario);
}

function adminView(scenario: Scenario): AdminScenario {
  const definition = definitionOf(scenario);
  return {
    view: 'admin',
    ...definition,
    // Every field of every step; steps without options (kinds other than choice, multi and rank) list none, and
    // correct_option is -1 on every kind but choice.
    steps: definition.steps.map((step) => ({
      ...step,
      options: 'options' in step ? step.options : [],
      correct_option: step.kind === 'choice' ? step.correct_option : -1,
    })),
    id: scenario.id,
    stepCount: scenario.step_count,
    origin: scenario.origin,
  };
}

/**
 * The scenario's card, built field by field, so nothing of its steps (titles, hints, artifacts, options, and
 * which steps exist at all) reaches a trainee's browser before the run gets there.
 */
export function traineeView(scenario: Scenario): TraineeScenario {
  const definition = definitionOf(scenario);
  return {
    view: 'trainee',
    id: scenario.id,
    name: definition.name,
    type: definition.type,
    difficulty: definition.difficulty,
    description: definition.description,
    ...(definition.sources ? { sources: definition.sources.map(({ title, url }) => ({ title, url })) } : {}),
    stepCount: scenario.step_count,
  };
}

/** Soft delete: trainees no longer see it, past runs keep their scenario, and the loader never restores it. */
export async function deleteScenario(db: Db, admin: User, id: string): Promise<void> {
  const scenario = await findActiveScenario(db, id);
  if (!scenario) throw notFound('No such scenario.');
  await db.transaction().execute(async (trx) => {
    if (!(await softDeleteScenario(trx, id, nowIso()))) throw notFound('No such scenario.');
    await recordAudit(trx, {
      actor: admin.email,
      action: 'delete scenario',
      details: `Deleted scenario "${scenario.name}" (${scenario.id})`,
      screen: CONFIGURATOR_SCREEN,
    });
  });
}

// --- Upload ----------------------------------------------------------------------------------------

/** A refused upload: the product's message, and every problem (as `place: message` and split into issues). */
export function uploadRefused(statusCode: number, problems: ScenarioProblem[]): AppError {
  return new AppError(statusCode, UPLOAD_MESSAGES.failed, { problems: problems.map(formatProblem), issues: problems });
}

const FILE = '(file)';

/** The name is shown, never used as a path: keep the last segment, drop control and direction characters. */
export function displayFilename(raw: string | undefined): string {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return clean.slice(0, 200) || 'scenario.yaml';
}

/** The text of a scenario file, or the reason it is not one: UTF-8 text only, no NUL bytes (binary). */
/** The text of a file as an upload reads it (UTF-8, no NUL bytes), or the problem that refuses it. */
export function readScenarioText(bytes: Buffer): { text: string } | { problem: ScenarioProblem } {
  if (bytes.length === 0) return { problem: { path: FILE, message: 'the file is empty' } };
  const notText = {
    problem: { path: FILE, message: 'is not a text file; upload a scenario written as YAML or JSON (UTF-8 text)' },
  };
  if (bytes.includes(0)) return notText;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return notText;
  }
}

function scenarioText(bytes: Buffer): string {
  const read = readScenarioText(bytes);
  if ('problem' in read) throw uploadRefused(400, [read.problem]);
  return read.text;
}

export interface UploadedScenarioFile {
  filename: string | undefined;
  bytes: Buffer;
}

/**
 * Publishes an uploaded scenario file: checks it whole; a new id keeps the original file and publishes the scenario
 * as version 1; an id that exists makes the file that scenario's draft (an admin then publishes it); an id of an
 * archived scenario is refused (409). Each in one transaction with its audit entry.
 */
export async function uploadScenario(
  db: Db,
  admin: User,
  upload: UploadedScenarioFile,
): Promise<UploadScenarioResponse> {
  if (upload.bytes.length > MAX_SCENARIO_FILE_BYTES) {
    throw uploadRefused(413, [{ path: FILE, message: 'is larger than 1 MB' }]);
  }
  const filename = displayFilename(upload.filename);
  const text = scenarioText(upload.bytes);
  const checked = checkScenarioText(text);
  if (!checked.ok) throw uploadRefused(400, checked.problems);
  const warnings = checked.warnings.map(formatProblem);

  const id = checked.scenario.id ?? deriveScenarioId(checked.scenario.name);
  const scenario: ScenarioDefinition = { ...checked.scenario, id };
  const summary = {
    id,
    name: scenario.name,
    type: scenario.type,
    difficulty: scenario.difficulty,
    description: scenario.description,
    stepCount: scenario.steps.length,
  };
  const idTaken = () => {
    const where = checked.scenario.id === undefined ? 'name' : 'id';
    return uploadRefused(409, [
      {
        path: where,
        message: `a scenario with the id "${id}" existed and was deleted; give the file another ${where}`,
      },
    ]);
  };
  if (RESERVED_SCENARIO_IDS.includes(id)) {
    const where = checked.scenario.id === undefined ? 'name' : 'id';
    throw uploadRefused(400, [
      { path: where, message: `"${id}" is reserved by the application; give the file another ${where}` },
    ]);
  }
  const existing = await findScenarioRow(db, id);
  if (existing && existing.deleted_at !== null) throw idTaken();
  if (existing) {
    const at = nowIso();
    const number = await db.transaction().execute(async (trx) => {
      const draftNumber = await uploadAsDraft(trx, { scenario: existing, definition: scenario, admin, at });
      await recordAudit(trx, {
        actor: admin.email,
        action: 'upload scenario draft',
        details: `Uploaded ${filename} (${upload.bytes.length} bytes) as the draft (version ${draftNumber}) of "${existing.name}" (${id})`,
        screen: UPLOAD_SCREEN,
      });
      return draftNumber;
    });
    return { filename, size: upload.bytes.length, upload_time: at, scenario: summary, draft: true, number, warnings };
  }

  const contentHash = createHash('sha256').update(upload.bytes).digest('hex');
  try {
    return await db.transaction().execute(async (trx) => {
      const stored = await saveFile(trx, {
        purpose: 'scenario_upload',
        filename,
        contentType: /^\s*[{[]/.test(text) ? 'application/json' : 'application/yaml',
        bytes: upload.bytes,
      });
      const inserted = await insertScenario(trx, {
        id,
        name: scenario.name,
        type: scenario.type,
        difficulty: scenario.difficulty,
        description: scenario.description,
        definition: JSON.stringify(scenario),
        step_count: scenario.steps.length,
        origin: 'upload',
        content_hash: contentHash,
        source_file_id: stored.id,
        created_at: stored.createdAt,
        updated_at: stored.createdAt,
        deleted_at: null,
      });
      if (!inserted) throw idTaken();
      const number = await publishDefinition(trx, {
        scenarioId: id,
        definition: scenario,
        sourceHash: null,
        contentHash,
        by: admin.id,
        at: stored.createdAt,
      });
      await recordAudit(trx, {
        actor: admin.email,
        action: 'upload scenario',
        details: `Uploaded scenario "${scenario.name}" (${id}) from ${filename}, ${stored.size} bytes, ${scenario.steps.length} steps`,
        screen: UPLOAD_SCREEN,
      });
      return {
        filename,
        size: stored.size,
        upload_time: stored.createdAt,
        scenario: summary,
        draft: false,
        number,
        warnings,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw idTaken();
    throw error;
  }
}
