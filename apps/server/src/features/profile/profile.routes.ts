import {
  PROFILE_MESSAGES,
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
import { readUploadWithinLimit } from '../files/read-upload';
import { getProfilePhoto, profileOf, replaceProfilePhoto, updateProfile } from './profile.service';

/** The picture's bytes from the multipart field `file`; over 2 MB is refused with 413 as soon as it passes 2 MB. */
async function uploadedPicture(request: FastifyRequest, reply: FastifyReply): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest(PROFILE_MESSAGES.photoMissing);
  const part = await request.file();
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
      schema: { tags: ['profile'], summary: 'Your own profile', response: { 200: profileResponseSchema } },
    },
    async (request) => ({ profile: profileOf(currentUser(request)) }),
  );

  app.patch(
    '/profile',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['profile'],
        summary: 'Change your first name, last name and designation',
        body: updateProfileInputSchema,
        response: { 200: profileResponseSchema },
      },
    },
    async (request) => ({ profile: await updateProfile(db, currentUser(request), request.body) }),
  );

  app.put(
    '/profile/photo',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['profile'],
        summary: 'Replace your profile picture (multipart field `file`: PNG, JPEG, WebP or GIF, at most 2 MB)',
        consumes: ['multipart/form-data'],
        response: { 200: profileResponseSchema },
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
        summary: "A user's profile picture (WebP); the URL carries the file id, so it is cached for good",
        params: userIdParamsSchema,
        querystring: z.object({ v: z.string().max(100).optional() }),
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
