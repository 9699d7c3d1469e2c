import { runScorePercent, stepSkill, type GradedAnswer, type ScenarioStep } from '@tradecraft/shared';
import { techniqueKey } from '@tradecraft/shared/attack';
import type { Db, DbOrTrx } from '../../db/database';
import { withTransaction } from '../../db/held-connection';
import type { Run, User } from '../../db/schema';
import type { JournalRun, RunJournal, RunJournalEntry } from '../../plugins/run-journal';

// What the run engine tells the run journal (plugins/run-journal.ts), built from the rows it already holds.

export function journalRunOf(run: Run, user: User): JournalRun {
  return {
    id: run.id,
    scenarioId: run.scenario_id,
    scenarioName: run.scenario_name,
    versionId: run.version_id,
    startedAt: run.started_at,
    user: { id: user.id, email: user.email, firstName: user.first_name, lastName: user.last_name },
  };
}

/** A first answer to a step, with the credit the run engine decided. */
export function answeredEntry(
  run: Run,
  user: User,
  step: ScenarioStep,
  graded: GradedAnswer,
  facts: { at: string; hintUsed: boolean; timeMs: number | null | undefined; awaitingReview: boolean },
): RunJournalEntry {
  return {
    kind: 'answered',
    run: journalRunOf(run, user),
    at: facts.at,
    step: {
      id: step.id,
      kind: step.kind ?? 'choice',
      prompt: step.title,
      technique: techniqueKey(step.mitre_attack) ?? null,
      skill: step.scored === false ? null : stepSkill(step),
      scored: step.scored !== false,
    },
    answer: {
      response: graded.decision,
      rawThousandths: graded.rawThousandths,
      earnedThousandths: graded.earnedThousandths,
      hintUsed: facts.hintUsed,
      timeMs: facts.timeMs ?? null,
      awaitingReview: facts.awaitingReview,
    },
  };
}

/** The run as a move on or an end left it: completed (with its score) or ended. */
export function finishedEntry(run: Run, user: User): RunJournalEntry | null {
  const at = run.finished_at ?? run.updated_at;
  if (run.status === 'completed') {
    return {
      kind: 'completed',
      run: journalRunOf(run, user),
      at,
      scorePercent: runScorePercent(run.score_thousandths, run.percent_base),
      pendingReviews: run.pending_reviews,
    };
  }
  if (run.status === 'ended') return { kind: 'ended', run: journalRunOf(run, user), at };
  return null;
}

/**
 * Makes one change of a run and writes its journal entry in one transaction when a journal listens (xAPI on);
 * with none, the change runs alone, as it always did.
 */
export async function journalled<T>(
  db: Db,
  journal: RunJournal | undefined,
  change: (db: DbOrTrx) => Promise<T>,
  entryOf: (result: T) => RunJournalEntry | null | undefined,
): Promise<T> {
  if (!journal?.active) return change(db);
  return withTransaction(db, async (trx) => {
    const result = await change(trx);
    const entry = entryOf(result);
    if (entry) await journal.record(trx, entry);
    return result;
  });
}
