import {
  countVerdicts,
  isMissedVerdict,
  keyInWords,
  missedCount,
  runStatusLabel,
  type ReportTechnique,
  type RunReport,
  type RunTimeline,
} from '@tradecraft/shared';
import { findTechnique, techniqueKey, techniqueRef } from '@tradecraft/shared/attack';
import { nowIso } from '../../clock';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { notFound } from '../../errors';
import { findUserById } from '../users/users.service';
import { reportNotesOf } from '../casefile/casefile.service';
import {
  difficultyFromSetting,
  durationSeconds,
  missedTechniques,
  PROGRESS_MESSAGES,
  rankScenarios,
  readableRun,
  toProgressDecision,
} from './progress.service';
import { parseStepResult, parseStoredDefinition, runFigures, skillScores } from '../runs/run-figures';
import {
  findDifficultySetting,
  findRunDefinition,
  findScenarioRow,
  listCatalogue,
  listDecisionsOfRun,
} from './progress.repository';

/** How many scenarios the report suggests practising next. */
export const MAX_PRACTICE_SCENARIOS = 3;

export const REPORT_NOTES = {
  missing: 'This scenario is no longer in the library, so its sources and the correct answers are unknown.',
  deleted:
    'This scenario has since been deleted from the library; its details below are from the version this run played.',
  unreadable: 'The scenario could not be read, so its sources and the correct answers are unknown.',
  changedSteps: 'Some steps have changed since this run; where a step is gone its correct answer is unknown.',
} as const;

/** GET /api/progress/timeline/:runId: the run's decisions in order (owner or admin). */
export async function runTimeline(db: Db, viewer: User, runId: string): Promise<RunTimeline> {
  const run = await readableRun(db, viewer, runId);
  const decisions = await listDecisionsOfRun(db, run.id);
  return { runId: run.id, timeline: decisions.map(toProgressDecision) };
}

/**
 * The after-action report: the scenario and its sources, result and score, duration, every decision with
 * the right answer from the scenario's definition, the techniques met and what to practise next.
 */
export async function runReport(db: Db, viewer: User, runId: string): Promise<RunReport> {
  const run = await readableRun(db, viewer, runId);
  const [decisionRows, scenarioRow, definitionText, trainee, catalogue, difficultySetting] = await Promise.all([
    listDecisionsOfRun(db, run.id),
    findScenarioRow(db, run.scenario_id),
    // The version the run played, never a later one: its steps and keys are the ones the trainee answered.
    findRunDefinition(db, run),
    run.user_id === viewer.id ? Promise.resolve(viewer) : findUserById(db, run.user_id),
    listCatalogue(db, { except: run.scenario_id }),
    findDifficultySetting(db),
  ]);

  const definition = scenarioRow && definitionText !== undefined ? parseStoredDefinition(definitionText) : null;
  const stepById = new Map((definition?.steps ?? []).map((step) => [step.id, step]));

  const decisions = decisionRows.map((row) => {
    const step = stepById.get(row.step_id);
    return {
      ...toProgressDecision(row),
      stepTitle: step?.title ?? null,
      optionIndex: row.option_index,
      correctAnswer: step ? keyInWords(step) : null,
      result: parseStepResult(row.result),
    };
  });

  const notes: string[] = [];
  if (!scenarioRow) notes.push(REPORT_NOTES.missing);
  else if (!definition) notes.push(REPORT_NOTES.unreadable);
  else if (scenarioRow.deleted_at !== null) notes.push(REPORT_NOTES.deleted);
  if (definition && decisionRows.some((row) => !stepById.has(row.step_id))) notes.push(REPORT_NOTES.changedSteps);

  // Per technique, by THE verdicts (the end screen's): right first answers and missed steps. An answer after a
  // Retry, an unscored step and a written answer awaiting review count in neither.
  const tally = new Map<string, { right: number; wrong: number }>();
  for (const decision of decisions) {
    const id = techniqueKey(decision.technique?.id ?? null);
    if (!id) continue;
    const counts = tally.get(id) ?? { right: 0, wrong: 0 };
    if (decision.verdict === 'right') counts.right += 1;
    else if (isMissedVerdict(decision.verdict)) counts.wrong += 1;
    tally.set(id, counts);
  }
  const techniques: ReportTechnique[] = [...tally.entries()]
    .map(([id, counts]) => ({ ...techniqueRef(id), url: findTechnique(id)?.url ?? null, ...counts }))
    .sort((a, b) => b.wrong - a.wrong || a.id.localeCompare(b.id));

  const practiseNext = rankScenarios(
    catalogue,
    missedTechniques(decisionRows),
    difficultyFromSetting(difficultySetting),
    {
      onlyCovering: true,
      limit: MAX_PRACTICE_SCENARIOS,
    },
  ).map(({ scenario, practises }) => ({
    id: scenario.id,
    name: scenario.name,
    type: scenario.type,
    difficulty: scenario.difficulty,
    practises,
  }));

  const figures = runFigures(run);
  const verdicts = countVerdicts(decisions.map((decision) => decision.verdict));
  // Deleting a user deletes their runs (ON DELETE CASCADE), so a run without its owner cannot be read.
  if (!trainee) throw notFound(PROGRESS_MESSAGES.runNotFound);
  const owner = trainee;
  return {
    run: {
      id: run.id,
      ...figures,
      statusLabel: runStatusLabel(figures.completed),
      durationSeconds: durationSeconds(run),
      correctCount: verdicts.right,
      incorrectCount: missedCount(verdicts),
      verdicts,
    },
    trainee: { id: owner.id, email: owner.email, firstName: owner.first_name, lastName: owner.last_name },
    scenario: {
      known: definition !== null,
      deleted: scenarioRow === undefined || scenarioRow.deleted_at !== null,
      type: scenarioRow?.type ?? null,
      difficulty: scenarioRow?.difficulty ?? null,
      description: definition?.description ?? scenarioRow?.description ?? null,
      sources: (definition?.sources ?? []).map((source) => ({ title: source.title, url: source.url })),
      note: notes.length > 0 ? notes.join(' ') : null,
    },
    decisions,
    techniques,
    skills: skillScores(decisionRows),
    practiseNext,
    generatedAt: nowIso(),
    notebook: await reportNotesOf(db, viewer, run),
  };
}
