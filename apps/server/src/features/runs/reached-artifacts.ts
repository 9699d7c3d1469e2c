import type { PlayerArtifact } from '@tradecraft/shared';
import { playerArtifacts } from '@tradecraft/shared/player';
import type { DbOrTrx } from '../../db/database';
import { parseStoredDefinition } from './run-figures';
import { findRun, findRunWithScenario, findVersionDefinition, listDecisions } from './runs.repository';

// What other features may read of a run's path (the case file, features/casefile): which steps the trainee has
// reached on their own path and the artifacts shown on them, drawn exactly as the player drew them (no key: on a
// grade-source step the graded artifact never carries its grade). Steps not yet reached are never read out.

export interface ReachedStep {
  stepId: string;
  title: string;
  /** The step the run is on now (in progress, or where an ended run stopped). */
  current: boolean;
  artifacts: PlayerArtifact[];
}

export interface ReachedPath {
  runId: string;
  ownerId: string;
  /** In the order the trainee first met them. */
  steps: ReachedStep[];
}

/** Who owns a run, or undefined when there is no such run. */
export async function runOwnerOf(db: DbOrTrx, runId: string): Promise<string | undefined> {
  return (await findRun(db, runId))?.user_id;
}

/**
 * The steps a run has reached: every step it answered (a Retry's step once) and the step it is on, in the order
 * first met, with their artifacts from the version the run plays. Undefined when there is no such run.
 */
export async function reachedPathOf(db: DbOrTrx, runId: string): Promise<ReachedPath | undefined> {
  const found = await findRunWithScenario(db, runId);
  if (!found) return undefined;
  const { run, scenario } = found;
  const versionId = run.version_id ?? scenario?.current_version_id ?? null;
  const [decisions, text] = await Promise.all([
    listDecisions(db, run.id),
    versionId === null ? Promise.resolve(undefined) : findVersionDefinition(db, versionId),
  ]);
  const definition = text === undefined ? null : parseStoredDefinition(text);
  const stepById = new Map((definition?.steps ?? []).map((step) => [step.id, step]));

  const reached: string[] = [];
  for (const decision of decisions) if (!reached.includes(decision.step_id)) reached.push(decision.step_id);
  if (!reached.includes(run.current_step_id)) reached.push(run.current_step_id);

  const steps: ReachedStep[] = reached.map((stepId) => {
    const step = stepById.get(stepId);
    return {
      stepId,
      title: step?.title ?? stepId,
      current: run.status !== 'completed' && stepId === run.current_step_id,
      artifacts: step ? playerArtifacts(step) : [],
    };
  });
  return { runId: run.id, ownerId: run.user_id, steps };
}
