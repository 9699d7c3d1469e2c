import { randomUUID } from 'node:crypto';
import {
  artifactLines,
  CASEFILE_MESSAGES,
  MAX_PINS_PER_RUN,
  type CaseFile,
  type PinInput,
  type RunNotes,
  type RunPin,
} from '@tradecraft/shared';
import { nowIso } from '../../clock';
import type { Db, DbOrTrx } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { withTransaction } from '../../db/held-connection';
import type { User } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { reachedPathOf, runOwnerOf, type ReachedPath } from '../runs/reached-artifacts';
import { countPins, deletePin, findNotes, insertPin, listPins, saveNotes, type RunPinRow } from './casefile.repository';

// The case file (docs/architecture.md, "The case file"): what the trainee met on their own path, their notebook
// and their evidence board. It is the trainee's own working space: only the run's owner reads or writes it, and
// anyone else (an admin too) is told there is no such run.

// A log line can be long; the board keeps enough of it to recognise it.
const MAX_QUOTE_CHARS = 1000;

/** The run's path, for its owner only (404 for anyone else, as for a run that does not exist). */
async function ownPath(db: DbOrTrx, viewer: User, runId: string): Promise<ReachedPath> {
  const path = await reachedPathOf(db, runId);
  if (!path || path.ownerId !== viewer.id) throw notFound(CASEFILE_MESSAGES.runNotFound);
  return path;
}

async function checkOwner(db: DbOrTrx, viewer: User, runId: string): Promise<void> {
  if ((await runOwnerOf(db, runId)) !== viewer.id) throw notFound(CASEFILE_MESSAGES.runNotFound);
}

const notesOf = (row: { text: string; updated_at: string } | undefined): RunNotes => ({
  text: row?.text ?? '',
  updatedAt: row?.updated_at ?? null,
});

function toPin(row: RunPinRow, path: ReachedPath): RunPin {
  const step = path.steps.find((candidate) => candidate.stepId === row.step_id);
  const artifact = step?.artifacts[row.artifact_index];
  return {
    id: row.id,
    stepId: row.step_id,
    stepTitle: step?.title ?? row.step_id,
    artifactIndex: row.artifact_index,
    artifactTitle: artifact?.title ?? artifact?.kind ?? 'Artifact',
    line: row.line === 0 ? null : row.line,
    quote: row.quote,
    pinnedAt: row.pinned_at,
  };
}

/** GET /api/runs/:id/case-file: the artifacts of every step reached, grouped by step, with the notes and pins. */
export async function caseFileOf(db: Db, viewer: User, runId: string): Promise<CaseFile> {
  const path = await ownPath(db, viewer, runId);
  const [notes, pins] = await Promise.all([findNotes(db, runId), listPins(db, runId)]);
  return {
    runId,
    steps: path.steps.map((step, index) => ({
      stepId: step.stepId,
      title: step.title,
      order: index + 1,
      current: step.current,
      artifacts: step.artifacts.map((artifact, artifactIndex) => ({ ...artifact, index: artifactIndex })),
    })),
    notes: notesOf(notes),
    pins: pins.map((pin) => toPin(pin, path)),
  };
}

/** GET /api/runs/:id/notes: the owner's notebook. */
export async function notesOfRun(db: Db, viewer: User, runId: string): Promise<RunNotes> {
  await checkOwner(db, viewer, runId);
  return notesOf(await findNotes(db, runId));
}

/** PUT /api/runs/:id/notes: saves the whole notebook, whatever the run's status (notes outlive End and Resume). */
export async function saveNotesOfRun(db: Db, viewer: User, runId: string, text: string): Promise<RunNotes> {
  await checkOwner(db, viewer, runId);
  const row = { run_id: runId, text, updated_at: nowIso() };
  await saveNotes(db, row);
  return notesOf(row);
}

/**
 * The notebook as the after-action report shows it: the trainee's own copy only (null for anyone else reading
 * the report, an admin included, and when nothing was written).
 */
export async function reportNotesOf(db: DbOrTrx, viewer: User, run: { id: string; user_id: string }) {
  if (run.user_id !== viewer.id) return null;
  const text = (await findNotes(db, run.id))?.text ?? '';
  return text.trim() ? text : null;
}

/**
 * POST /api/runs/:id/pins: pins an artifact of a reached step, or one of its lines. The quote is read here from the
 * artifact the trainee met, never taken from the request.
 */
export async function pinEvidence(db: Db, viewer: User, runId: string, input: PinInput): Promise<RunPin> {
  const path = await ownPath(db, viewer, runId);
  const step = path.steps.find((candidate) => candidate.stepId === input.stepId);
  const artifact = step?.artifacts[input.artifactIndex];
  if (!step || !artifact) throw notFound(CASEFILE_MESSAGES.notReached);
  let quote = artifact.title ?? artifactLines(artifact.content)[0] ?? '';
  if (input.line !== undefined) {
    const text = artifactLines(artifact.content)[input.line - 1];
    if (text === undefined || !text.trim()) throw badRequest(CASEFILE_MESSAGES.lineNotFound);
    quote = text.trim();
  }
  const row: RunPinRow = {
    id: randomUUID(),
    run_id: runId,
    step_id: step.stepId,
    artifact_index: input.artifactIndex,
    line: input.line ?? 0,
    quote: quote.slice(0, MAX_QUOTE_CHARS),
    pinned_at: nowIso(),
  };
  try {
    await withTransaction(db, async (trx) => {
      if ((await countPins(trx, runId)) >= MAX_PINS_PER_RUN) throw conflict(CASEFILE_MESSAGES.boardFull);
      await insertPin(trx, row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(CASEFILE_MESSAGES.alreadyPinned);
    throw error;
  }
  return toPin(row, path);
}

/** DELETE /api/runs/:id/pins/:pinId: takes a pin off the board and answers with the pins left. */
export async function unpinEvidence(db: Db, viewer: User, runId: string, pinId: string): Promise<RunPin[]> {
  const path = await ownPath(db, viewer, runId);
  if (!(await deletePin(db, { runId, pinId }))) throw notFound(CASEFILE_MESSAGES.pinNotFound);
  return (await listPins(db, runId)).map((pin) => toPin(pin, path));
}
