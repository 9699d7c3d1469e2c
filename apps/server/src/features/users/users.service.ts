import type { ApproveUserInput } from '@tradecraft/shared';
import { nowIso } from '../../clock';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { conflict, notFound } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { findUserById } from './users.repository';

const PENDING_SCREEN = 'Pending Approvals';

async function pendingUser(db: Db, id: string): Promise<User> {
  const user = await findUserById(db, id);
  if (!user) throw notFound('No such user.');
  if (user.role !== 'pending') throw conflict('This user is no longer pending approval.');
  return user;
}

/** Gives a pending account its role; the update only applies while the account is still pending. */
export async function approveUser(db: Db, actor: User, id: string, input: ApproveUserInput): Promise<User> {
  const user = await pendingUser(db, id);
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('users')
      .set({ role: input.role, updated_at: nowIso() })
      .where('id', '=', id)
      .where('role', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw conflict('This user is no longer pending approval.');
    await recordAudit(trx, {
      actor: actor.email,
      action: 'approve user',
      details: `Approved ${user.email} as ${input.role}`,
      screen: PENDING_SCREEN,
    });
    return updated;
  });
}

/** Rejecting a pending registration deletes the record (SPEC.md section 4). */
export async function rejectUser(db: Db, actor: User, id: string): Promise<void> {
  const user = await pendingUser(db, id);
  await db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('users').where('id', '=', id).where('role', '=', 'pending').executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw conflict('This user is no longer pending approval.');
    await recordAudit(trx, {
      actor: actor.email,
      action: 'reject user',
      details: `Rejected and deleted the registration of ${user.email}`,
      screen: PENDING_SCREEN,
    });
  });
}
