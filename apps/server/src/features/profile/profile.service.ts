import { PROFILE_MESSAGES, type Profile, type UpdateProfileInput } from '@tradecraft/shared';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { notFound } from '../../errors';
import { deleteFile, getFileBytes, saveFile } from '../files/files.service';
import { toSessionUser } from '../users/session-user';
import { normalizeProfilePhoto, PROFILE_PHOTO_CONTENT_TYPE } from './profile-photo';
import { consumeRateLimit, MINUTE, type RateLimit } from '../auth/rate-limit';
import { findPhotoFileId, lockPhotoFileId, setPhotoFileId, updateProfileFields } from './profile.repository';

export function profileOf(user: User): Profile {
  return toSessionUser(user);
}

/** Changes the signed-in user's own names and designation (email and role are not theirs to change). */
export async function updateProfile(db: Db, user: User, input: Required<UpdateProfileInput>): Promise<Profile> {
  const updated = await updateProfileFields(db, user.id, input);
  if (!updated) throw notFound('Your account no longer exists.');
  return profileOf(updated);
}

/** Decoding and re-encoding a picture is the costliest thing a user can ask for: a few a minute are plenty. */
export const PICTURES_PER_USER: RateLimit = {
  name: 'profile-pictures',
  max: 10,
  windowMs: 10 * MINUTE,
  message: 'You have uploaded too many pictures. Please wait 10 minutes and try again.',
};

/** Re-encodes the picture, stores it and removes the previous one, all in one transaction. */
export async function replaceProfilePhoto(db: Db, user: User, bytes: Buffer): Promise<Profile> {
  await consumeRateLimit(db, PICTURES_PER_USER, user.id);
  const webp = await normalizeProfilePhoto(bytes);
  const updated = await db.transaction().execute(async (trx) => {
    const current = await lockPhotoFileId(trx, user.id);
    if (!current) throw notFound('Your account no longer exists.');
    const stored = await saveFile(trx, {
      purpose: 'profile_photo',
      filename: `${user.id}.webp`,
      contentType: PROFILE_PHOTO_CONTENT_TYPE,
      bytes: webp,
    });
    const changed = await setPhotoFileId(trx, user.id, stored.id);
    if (current.photoFileId) await deleteFile(trx, current.photoFileId);
    return changed;
  });
  return profileOf(updated);
}

/** Any signed-in user may see anyone's picture (names and pictures appear on shared screens). */
export async function getProfilePhoto(db: Db, userId: string): Promise<{ contentType: string; bytes: Buffer }> {
  const fileId = await findPhotoFileId(db, userId);
  if (!fileId) throw notFound(PROFILE_MESSAGES.noPhoto);
  const file = await getFileBytes(db, fileId);
  if (!file) throw notFound(PROFILE_MESSAGES.noPhoto);
  return { contentType: file.contentType, bytes: file.bytes };
}
