// Kept free of zod: the profile page checks a picture before sending it with these same rules.

/** A profile picture may be at most 2 MB (the upload limits are listed in docs/operations.md). */
export const PROFILE_PHOTO_MAX_BYTES = 2 * 1024 * 1024;

/** The picture types a profile accepts, told from the bytes on the server (never from the name). */
export const PROFILE_PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** The longest side of a stored picture, in pixels. */
export const PROFILE_PHOTO_MAX_SIDE = 512;

export const PROFILE_MESSAGES = {
  saved: 'Profile updated successfully!',
  photoSaved: 'Profile picture updated.',
  photoType: 'Only PNG, JPEG, WebP or GIF images can be used as a profile picture.',
  photoTooLarge: 'The picture must be at most 2 MB.',
  photoMissing: 'Choose a picture to upload.',
  photoUnreadable: 'This picture could not be read. Try another PNG, JPEG, WebP or GIF image.',
  photoTooManyPixels: 'This picture has too many pixels. Use one of at most 25 megapixels.',
  noPhoto: 'This user has no profile picture.',
} as const;

/**
 * The browser's quick check before uploading (the server decides from the bytes): `null` when the file may
 * be sent, otherwise the message to show.
 */
export function profilePhotoProblem(file: { type: string; size: number }): string | null {
  if (!(PROFILE_PHOTO_TYPES as readonly string[]).includes(file.type)) return PROFILE_MESSAGES.photoType;
  if (file.size > PROFILE_PHOTO_MAX_BYTES) return PROFILE_MESSAGES.photoTooLarge;
  if (file.size === 0) return PROFILE_MESSAGES.photoUnreadable;
  return null;
}
