import type { SessionUser } from '@tradecraft/shared';
import type { User } from '../../db/schema';

// The signed-in user as every feature hands it to the browser; pure, so auth and profile use it too.

export function photoUrl(user: Pick<User, 'id' | 'photo_file_id'>): string | null {
  // The file id in the query string changes with every new picture, so browsers may cache each one forever.
  return user.photo_file_id ? `/api/users/${user.id}/photo?v=${user.photo_file_id}` : null;
}

export function toSessionUser(user: User): SessionUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    designation: user.designation,
    role: user.role,
    photoUrl: photoUrl(user),
    createdAt: user.created_at,
    ...(user.must_change_password === 1 ? { mustChangePassword: true } : {}),
  };
}
