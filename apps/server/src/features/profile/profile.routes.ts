import {
  PROFILE_MESSAGES,
  PROFILE_PHOTO_MAX_BYTES,
  profileResponseSchema,
  updateProfileInputSchema,
  userIdParamsSchema,
} from '@tradecraft/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError, badRequest } from '../../errors';
import { currentUser } from '../../plugins/access';
import { errorResponses, fileResponse } from '../../plugins/docs';
import { PROFILE_PHOTO_CONTENT_TYPE } from './profile-photo';
import { filePart, readUploadWithinLimit } from '../files/read-upload';
import { getProfilePhoto, profileOf, replaceProfilePhoto, updateProfile } from './profile.service';

/** The picture's bytes from the multipart field `file`; over 2 MB is refused with 413 as soon as it passes 2 MB. */
async function uploadedPicture(request: FastifyRequest, reply: FastifyReply): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest(PROFILE_MESSAGES.photoMissing);
  const part = await filePart(request);
  if (!part || part.fieldname !== 'file') throw badRequest(PROFILE_MESSAGES.photoMissing);
  const bytes = await readUploadWithinLimit(part, request, reply);
  if (!bytes) throw new AppError(413, PROFILE_MESSAGES.photoTooLarge);
  return bytes;
}

// Registered without a prefix: /profile for your own, /users/:id/photo for anyone's picture.
export const profileRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/profile',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['profile'],
        operationId: 'getProfile',
        summary: 'Your profile',
        description: 'The signed-in user’s own profile: names, designation, email, role and picture.',
        response: { 200: profileResponseSchema },
      },
    },
    async (request) => ({ profile: profileOf(currentUser(request)) }),
  );

  app.patch(
    '/profile',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['profile'],
        operationId: 'updateProfile',
        summary: 'Edit your profile',
        description: 'Changes your first name, last name and designation.',
        body: updateProfileInputSchema,
        response: { 200: profileResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({ profile: await updateProfile(db, currentUser(request), request.body) }),
  );

  app.put(
    '/profile/photo',
    {
      config: {
        access: 'signedIn',
        upload: { maxBytes: PROFILE_PHOTO_MAX_BYTES, description: 'The picture: PNG, JPEG, WebP or GIF' },
      },
      schema: {
        tags: ['profile'],
        operationId: 'replaceProfilePhoto',
        summary: 'Replace your profile picture',
        description:
          'Upload the picture as multipart/form-data in the field `file`. It is stored as a WebP of at most 512 px a ' +
          'side. 400 for a missing, unreadable or unsupported file; 413 as soon as it passes 2 MB.',
        consumes: ['multipart/form-data'],
        response: { 200: profileResponseSchema, ...errorResponses(404, 429) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const bytes = await uploadedPicture(request, reply);
      return { profile: await replaceProfilePhoto(db, user, bytes) };
    },
  );

  app.get(
    '/users/:id/photo',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['profile'],
        operationId: 'getUserPhoto',
        summary: 'A user’s profile picture',
        description:
          'The picture as WebP. Profiles link it with `?v=` the file id, so the answer may be cached for good. 404 ' +
          'when the user has none.',
        params: userIdParamsSchema,
        querystring: z.object({ v: z.string().max(100).optional() }),
        response: {
          200: fileResponse({ mediaType: PROFILE_PHOTO_CONTENT_TYPE, description: 'The picture (WebP).' }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const photo = await getProfilePhoto(db, request.params.id);
      return reply
        .header('content-type', photo.contentType)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .send(photo.bytes);
    },
  );
};
