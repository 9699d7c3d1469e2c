import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import type { RunNotesTable, RunPinsTable } from '../../db/schema';

export type RunNotesRow = Selectable<RunNotesTable>;
export type RunPinRow = Selectable<RunPinsTable>;

export function findNotes(db: DbOrTrx, runId: string): Promise<RunNotesRow | undefined> {
  return db.selectFrom('run_notes').selectAll().where('run_id', '=', runId).executeTakeFirst();
}

/** Writes a run's whole notebook (one row per run, replaced on every save). */
export async function saveNotes(db: DbOrTrx, notes: RunNotesRow): Promise<void> {
  await db
    .insertInto('run_notes')
    .values(notes)
    .onConflict((conflict) => conflict.column('run_id').doUpdateSet({ text: notes.text, updated_at: notes.updated_at }))
    .execute();
}

/** A run's pins, oldest first. */
export function listPins(db: DbOrTrx, runId: string): Promise<RunPinRow[]> {
  return db.selectFrom('run_pins').selectAll().where('run_id', '=', runId).orderBy('pinned_at').orderBy('id').execute();
}

export async function countPins(db: DbOrTrx, runId: string): Promise<number> {
  const row = await db
    .selectFrom('run_pins')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function insertPin(db: DbOrTrx, pin: RunPinRow): Promise<void> {
  await db.insertInto('run_pins').values(pin).execute();
}

/** Removes one pin of a run; false when the run has no such pin. */
export async function deletePin(db: DbOrTrx, of: { runId: string; pinId: string }): Promise<boolean> {
  const result = await db
    .deleteFrom('run_pins')
    .where('run_id', '=', of.runId)
    .where('id', '=', of.pinId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
