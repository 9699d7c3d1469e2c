import { createHash, randomUUID } from 'node:crypto';
import type { ScenarioDefinition, ScenarioSource } from '@tradecraft/shared';
import type { DbOrTrx } from '../../db/database';
import type { Run, User } from '../../db/schema';

// A small factory for the progress tests: scenarios, runs and decisions straight into the tables, in the
// shape the scenarios feature and the run engine store them (the data contract of migration 0003).

export interface FixtureStep {
  id: string;
  technique?: string;
  /** Option texts; the first is correct unless `correct` says otherwise. */
  options?: string[];
  correct?: number;
}

export interface FixtureScenario {
  id: string;
  name: string;
  definition: ScenarioDefinition;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}-${randomUUID().slice(0, 6)}`;

export const optionText = (stepId: string, index: number) => `${stepId} option ${index}`;

export async function insertScenario(
  db: DbOrTrx,
  options: {
    id?: string;
    name?: string;
    type?: string;
    difficulty?: number;
    steps?: FixtureStep[];
    sources?: ScenarioSource[];
    deleted?: boolean;
  } = {},
): Promise<FixtureScenario> {
  const id = options.id ?? unique('scenario');
  const steps = options.steps ?? [{ id: 'one' }, { id: 'two' }];
  const definition: ScenarioDefinition = {
    id,
    name: options.name ?? `Scenario ${id}`,
    type: options.type ?? 'Phishing',
    difficulty: options.difficulty ?? 3,
    description: `Description of ${id}.`,
    ...(options.sources ? { sources: options.sources } : {}),
    steps: steps.map((step) => ({
      kind: 'choice' as const,
      id: step.id,
      title: `Title of ${step.id}`,
      description: `What happens at ${step.id}.`,
      ...(step.technique ? { mitre_attack: step.technique } : {}),
      options: (step.options ?? [optionText(step.id, 0), optionText(step.id, 1)]).map((text) => ({ text })),
      correct_option: step.correct ?? 0,
    })),
  };
  const now = new Date().toISOString();
  const text = JSON.stringify(definition);
  await db
    .insertInto('scenarios')
    .values({
      id,
      name: definition.name,
      type: definition.type,
      difficulty: definition.difficulty,
      description: definition.description,
      definition: text,
      step_count: definition.steps.length,
      origin: 'upload',
      content_hash: createHash('sha256').update(text).digest('hex'),
      source_file_id: null,
      created_at: now,
      updated_at: now,
      deleted_at: options.deleted ? now : null,
      current_version_id: `${id}@v1`,
    })
    .execute();
  // Version 1, published, as migration 2026_11_25_0100 makes one for a scenario that existed before versions.
  await db
    .insertInto('scenario_versions')
    .values({
      id: `${id}@v1`,
      scenario_id: id,
      number: 1,
      state: 'published',
      revision: 1,
      definition: text,
      based_on: null,
      summary: 'First version',
      source_hash: null,
      created_by: null,
      created_at: now,
      saved_by: null,
      saved_at: now,
      published_by: null,
      published_at: now,
    })
    .execute();
  return { id, name: definition.name, definition };
}

export interface FixtureDecision {
  stepId: string;
  optionIndex?: number;
  correct: boolean;
  technique?: string | null;
  decision?: string;
  feedback?: string;
  timeMs?: number | null;
}

/** Minutes after 2026-01-01T00:00Z, so tests can order runs by start time. */
export const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString();

export async function insertRun(
  db: DbOrTrx,
  options: {
    user: Pick<User, 'id'>;
    scenario: Pick<FixtureScenario, 'id' | 'name'>;
    status?: Run['status'];
    score?: number;
    stepCount?: number;
    scenarioName?: string;
    startedMinute?: number;
    durationSeconds?: number;
    decisions?: FixtureDecision[];
    id?: string;
  },
): Promise<Run> {
  const status = options.status ?? 'completed';
  const startedAt = at(options.startedMinute ?? 0);
  const finishedAt =
    status === 'in_progress'
      ? null
      : new Date(Date.parse(startedAt) + (options.durationSeconds ?? 90) * 1000).toISOString();
  const decisions = options.decisions ?? [];
  const run: Run = {
    id: options.id ?? randomUUID(),
    user_id: options.user.id,
    scenario_id: options.scenario.id,
    scenario_name: options.scenarioName ?? options.scenario.name,
    step_count: options.stepCount ?? 2,
    current_step_id: decisions.at(-1)?.stepId ?? 'one',
    current_answered: 0,
    last_option_index: null,
    // Recorded as the migration keeps a run from before step kinds: 1 credit per correct answer, percent over the
    // step count.
    score_thousandths: 1000 * (options.score ?? decisions.filter((decision) => decision.correct).length),
    percent_base: options.stepCount ?? 2,
    played_steps: decisions.length,
    best_path_steps: options.stepCount ?? 2,
    pending_reviews: 0,
    hint_opened: 0,
    visit_submitted: 0,
    last_credit_thousandths: null,
    status,
    started_at: startedAt,
    finished_at: finishedAt,
    updated_at: finishedAt ?? startedAt,
    // Unpinned: the run plays its scenario's current version (see runs.service's loadedScenario).
    version_id: null,
  };
  await db.insertInto('runs').values(run).execute();
  if (decisions.length > 0) {
    await db
      .insertInto('run_decisions')
      .values(
        decisions.map((decision, index) => ({
          run_id: run.id,
          seq: index + 1,
          step_id: decision.stepId,
          option_index: decision.optionIndex ?? (decision.correct ? 0 : 1),
          correct: decision.correct ? 1 : 0,
          decision:
            decision.decision ?? optionText(decision.stepId, decision.optionIndex ?? (decision.correct ? 0 : 1)),
          feedback: decision.feedback ?? (decision.correct ? 'Correct!' : 'Incorrect.'),
          technique: decision.technique ?? null,
          time_ms: decision.timeMs === undefined ? 1000 * (index + 1) : decision.timeMs,
          at: new Date(Date.parse(startedAt) + (index + 1) * 10_000).toISOString(),
          kind: 'choice',
          skill: 'response',
          credit_thousandths: decision.correct ? 1000 : 0,
          first_submission: 1,
          scored: 1,
          hint_used: 0,
          result: null,
        })),
      )
      .execute();
  }
  return run;
}
