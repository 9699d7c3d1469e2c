import { USER_EDIT_MESSAGES, type ApproveUserInput, type updateUserInputSchema } from '@tradecraft/shared';
import type { z } from 'zod';
import { nowIso } from '../../clock';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { deleteUserSessions } from '../../plugins/sessions.repository';
import { revokeAllApiTokensOf } from '../../plugins/api-tokens.repository';
import { endStreamsOfEndedSessions, notifyRecipients } from '../notifications/notifications.hub';
import { markRegistrationHandled } from '../notifications/notifications.service';
import {
  activeLockEnd,
  approvePendingUser,
  listAdminIds,
  deletePendingUser,
  findUserById,
  findUserForUpdate,
  lockActiveAdminIds,
  updateUserFields,
} from './users.repository';

// What other features may read about users: they come here, never to users.repository.
export {
  findUserByEmail,
  findUserById,
  findUserForUpdate,
  insertUser,
  listAdminIds,
  lockActiveAdminIds,
  updateUserFields,
} from './users.repository';

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
  const approved = await db.transaction().execute(async (trx) => {
    const updated = await approvePendingUser(trx, id, input.role, nowIso());
    if (!updated) throw conflict('This user is no longer pending approval.');
    await markRegistrationHandled(trx, id);
    await recordAudit(trx, {
      actor: actor.email,
      action: 'approve user',
      details: `Approved ${user.email} as ${input.role}`,
      screen: PENDING_SCREEN,
    });
    return updated;
  });
  await tellAdminsRegistrationHandled(db);
  return approved;
}

/**
 * After the commit: every admin's open bell and approval queue refresh (the registration's notifications are
 * read and it left the queue, whoever handled it).
 */
async function tellAdminsRegistrationHandled(db: Db): Promise<void> {
  await notifyRecipients(db, await listAdminIds(db));
}

/** Rejecting a pending registration deletes the record: the person may register again. */
export async function rejectUser(db: Db, actor: User, id: string): Promise<void> {
  const user = await pendingUser(db, id);
  await db.transaction().execute(async (trx) => {
    if (!(await deletePendingUser(trx, id))) throw conflict('This user is no longer pending approval.');
    await markRegistrationHandled(trx, id);
    await recordAudit(trx, {
      actor: actor.email,
      action: 'reject user',
      details: `Rejected and deleted the registration of ${user.email}`,
      screen: PENDING_SCREEN,
    });
  });
  await tellAdminsRegistrationHandled(db);
}

const MANAGE_SCREEN = 'Manage Users';
const yesNo = (flag: number) => (flag === 1 ? 'yes' : 'no');

/** 'role: student → admin; disabled: no → yes' — what an edit changed, for the audit trail. */
function describeChanges(
  before: User,
  after: Pick<User, 'first_name' | 'last_name' | 'designation' | 'role' | 'disabled'>,
): string[] {
  const changes: string[] = [];
  const text = (label: string, from: string, to: string) => {
    if (from !== to) changes.push(`${label}: "${from}" → "${to}"`);
  };
  text('first name', before.first_name, after.first_name);
  text('last name', before.last_name, after.last_name);
  text('designation', before.designation, after.designation);
  if (before.role !== after.role) changes.push(`role: ${before.role} → ${after.role}`);
  if (before.disabled !== after.disabled)
    changes.push(`disabled: ${yesNo(before.disabled)} → ${yesNo(after.disabled)}`);
  return changes;
}

/**
 * An admin's edit of an approved account. The self and last-admin rules are checked inside the transaction
 * with the admins locked, so two admins demoting each other at once cannot leave the platform without one.
 * Disabling ends the user's sessions (and their notification streams at once); enabling clears the failed
 * sign-in count and any lock.
 */
export async function updateUser(
  db: Db,
  actor: User,
  id: string,
  input: z.output<typeof updateUserInputSchema>,
): Promise<User> {
  let disabled = false;
  const updated = await db.transaction().execute(async (trx) => {
    const touchesAdminRights = input.role !== undefined || input.disabled !== undefined;
    const activeAdminIds = touchesAdminRights ? await lockActiveAdminIds(trx) : [];
    const user = await findUserForUpdate(trx, id);
    if (!user) throw notFound('No such user.');
    if (user.role === 'pending') throw conflict(USER_EDIT_MESSAGES.stillPending);

    const next = {
      first_name: input.firstName ?? user.first_name,
      last_name: input.lastName ?? user.last_name,
      designation: input.designation ?? user.designation,
      role: input.role ?? user.role,
      disabled: input.disabled === undefined ? user.disabled : input.disabled ? 1 : 0,
    };
    const locked = activeLockEnd(user) !== null;
    const disabling = user.disabled === 0 && next.disabled === 1;
    // Enabling also lifts a lock after failed sign-ins (Manage Users shows a locked account as disabled).
    const enabling = (user.disabled === 1 || locked) && input.disabled === false;
    const demoting = user.role === 'admin' && next.role !== 'admin';
    if (user.id === actor.id && disabling) throw conflict(USER_EDIT_MESSAGES.selfDisable);
    if (user.id === actor.id && demoting) throw conflict(USER_EDIT_MESSAGES.selfDemote);
    const isActiveAdmin = user.role === 'admin' && user.disabled === 0;
    if (isActiveAdmin && (disabling || demoting) && activeAdminIds.filter((adminId) => adminId !== id).length === 0) {
      throw conflict(USER_EDIT_MESSAGES.lastAdmin);
    }
    // The access check read the actor before this transaction; an admin demoted meanwhile may not go on.
    if (touchesAdminRights && !activeAdminIds.includes(actor.id)) throw forbidden();

    const changes = describeChanges(user, next);
    if (enabling && locked) changes.push('sign-in lock lifted');
    if (changes.length === 0) return user;
    const updated = await updateUserFields(trx, id, {
      ...next,
      ...(enabling
        ? { failed_attempts: 0, locked_until: null, second_step_failures: 0, second_step_failed_at: null }
        : {}),
      updated_at: nowIso(),
    });
    if (disabling) await deleteUserSessions(trx, id);
    // A demoted or disabled admin's tokens are revoked, not merely dormant: a later promotion or enabling must not
    // bring them back (docs/security.md, "API tokens").
    if (demoting || (disabling && user.role === 'admin')) {
      const revoked = await revokeAllApiTokensOf(trx, id, nowIso());
      if (revoked.length > 0) changes.push(`revoked ${revoked.length} API token${revoked.length === 1 ? '' : 's'}`);
    }
    disabled = disabling;
    await recordAudit(trx, {
      actor: actor.email,
      action: 'edit user',
      details: `Edited ${user.email}: ${changes.join('; ')}`,
      screen: MANAGE_SCREEN,
    });
    return updated;
  });
  if (disabled) await endStreamsOfEndedSessions(db, [id]);
  return updated;
}

/** Ends every session of the user (audited); the account itself is untouched. */
export async function endUserSessions(db: Db, actor: User, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await findUserForUpdate(trx, id);
    if (!user) throw notFound('No such user.');
    await deleteUserSessions(trx, id);
    await recordAudit(trx, {
      actor: actor.email,
      action: 'end sessions',
      details: `Ended every session of ${user.email}`,
      screen: MANAGE_SCREEN,
    });
  });
  await endStreamsOfEndedSessions(db, [id]);
}
