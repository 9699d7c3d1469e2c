import { PROFILE_MESSAGES } from '@tradecraft/shared';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { zeroPng } from '../../../../../test-support/png';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

/** A browser-like multipart upload of one file in the field `file`. */
function uploadPhoto(cookie: string, file: { name: string; type: string; bytes: Buffer }, field = 'file') {
  const boundary = '----tradecraft-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'PUT',
    url: '/api/profile/photo',
    headers: {
      origin: ORIGIN,
      cookie: `${SESSION_COOKIE}=${cookie}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
}

const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 0, g: 160, b: 200 } } })
    .png()
    .withExif({ IFD0: { Copyright: 'secret-camera-owner', ImageDescription: 'GPS 51.5 -0.12' } })
    .toBuffer();

/** A valid PNG of a few hundred bytes whose header claims 20000 x 20000 pixels (400 megapixels). */
const decompressionBombPng = () => zeroPng(20_000, 20_000, 1);

describe('GET /api/profile', () => {
  it('returns the signed-in user their own profile', async () => {
    const { user, cookie } = await t.userWithSession('student', { first_name: 'Ada', designation: 'SOC Analyst' });
    const response = await t.request({ method: 'GET', url: '/api/profile', cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile).toMatchObject({
      id: user.id,
      email: user.email,
      firstName: 'Ada',
      designation: 'SOC Analyst',
      role: 'student',
      photoUrl: null,
    });
    expect(response.json().profile).not.toHaveProperty('passwordHash');
  });

  it('is refused when signed out', async () => {
    const response = await t.request({ method: 'GET', url: '/api/profile' });
    expect(response.statusCode).toBe(401);
  });
});

describe('PATCH /api/profile', () => {
  it('saves the names and designation, trimmed, and the session shows them', async () => {
    const { cookie } = await t.userWithSession('student');
    const response = await t.request({
      method: 'PATCH',
      url: '/api/profile',
      cookie,
      body: { firstName: '  Grace ', lastName: 'Hopper', designation: 'Threat Intel Lead' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      designation: 'Threat Intel Lead',
    });
    const me = await t.request({ method: 'GET', url: '/api/auth/me', cookie });
    expect(me.json().user).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', designation: 'Threat Intel Lead' });
  });

  it('requires first and last name, as at registration, and changes nothing when refused', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const noFirst = await t.request({
      method: 'PATCH',
      url: '/api/profile',
      cookie,
      body: { firstName: '  ', lastName: 'X' },
    });
    expect(noFirst.statusCode).toBe(400);
    expect(noFirst.json().error).toBe('First name is required.');
    const noLast = await t.request({
      method: 'PATCH',
      url: '/api/profile',
      cookie,
      body: { firstName: 'X', lastName: '' },
    });
    expect(noLast.statusCode).toBe(400);
    expect(noLast.json().error).toBe('Last name is required.');
    const me = await t.request({ method: 'GET', url: '/api/profile', cookie });
    expect(me.json().profile.firstName).toBe(user.first_name);
  });

  it('cannot change the email or the role', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const response = await t.request({
      method: 'PATCH',
      url: '/api/profile',
      cookie,
      body: { firstName: 'Eve', lastName: 'Student', designation: '', role: 'admin', email: 'eve@evil.test' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile).toMatchObject({ role: 'student', email: user.email, designation: '' });
  });
});

describe('PUT /api/profile/photo', () => {
  it('takes a PNG, stores it re-encoded as WebP of at most 512 px without its metadata, and serves it', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const original = await png(1024, 768);
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const response = await uploadPhoto(cookie, { name: 'me.png', type: 'image/png', bytes: original });
    expect(response.statusCode).toBe(200);
    const { photoUrl } = response.json().profile as { photoUrl: string };
    expect(photoUrl).toMatch(new RegExp(`^/api/users/${user.id}/photo\\?v=`));

    const stored = await t.db.selectFrom('files').selectAll().where('purpose', '=', 'profile_photo').execute();
    expect(stored).toHaveLength(1);
    const bytes = Buffer.from(stored[0]!.bytes);
    expect(stored[0]!.content_type).toBe('image/webp');
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 512, height: 384 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(bytes.includes(Buffer.from('secret-camera-owner'))).toBe(false);

    // Any signed-in user may see it; it is cached for good since the URL changes with each picture.
    const other = await t.userWithSession('student');
    const served = await t.request({ method: 'GET', url: photoUrl, cookie: other.cookie });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(served.rawPayload, bytes)).toBe(0);

    const signedOut = await t.request({ method: 'GET', url: photoUrl });
    expect(signedOut.statusCode).toBe(401);
  });

  it('turns the picture upright per its EXIF orientation before dropping the metadata', async () => {
    const { cookie } = await t.userWithSession('student');
    // 80 x 40 stored sideways: orientation 6 means "rotate 90 degrees clockwise to view".
    const jpeg = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#c00' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const response = await uploadPhoto(cookie, { name: 'phone.jpg', type: 'image/jpeg', bytes: jpeg });
    expect(response.statusCode).toBe(200);
    const row = await t.db.selectFrom('files').select('bytes').executeTakeFirstOrThrow();
    const metadata = await sharp(Buffer.from(row.bytes)).metadata();
    expect(metadata).toMatchObject({ width: 40, height: 80 });
    expect(metadata.orientation).toBeUndefined();
  });

  it('replaces the old picture and deletes its file', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const first = await uploadPhoto(cookie, { name: 'a.png', type: 'image/png', bytes: await png() });
    const firstUrl = first.json().profile.photoUrl as string;
    const second = await uploadPhoto(cookie, {
      name: 'b.gif',
      type: 'image/gif',
      bytes: await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0f0' } })
        .gif()
        .toBuffer(),
    });
    expect(second.statusCode).toBe(200);
    const secondUrl = second.json().profile.photoUrl as string;
    expect(secondUrl).not.toBe(firstUrl);

    const files = await t.db.selectFrom('files').select('id').execute();
    const row = await t.db
      .selectFrom('users')
      .select('photo_file_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(files.map((file) => file.id)).toEqual([row.photo_file_id]);
    expect((await t.request({ method: 'GET', url: secondUrl, cookie })).statusCode).toBe(200);
  });

  it('keeps exactly one picture file when two uploads race', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const responses = await Promise.all([
      uploadPhoto(cookie, { name: 'a.png', type: 'image/png', bytes: await png(40, 40) }),
      uploadPhoto(cookie, { name: 'b.png', type: 'image/png', bytes: await png(50, 50) }),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
    const files = await t.db.selectFrom('files').select('id').execute();
    const row = await t.db
      .selectFrom('users')
      .select('photo_file_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(files.map((file) => file.id)).toEqual([row.photo_file_id]);
  });

  it('refuses an SVG, whatever it claims to be', async () => {
    const { cookie } = await t.userWithSession('student');
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
    );
    for (const type of ['image/svg+xml', 'image/png']) {
      const response = await uploadPhoto(cookie, { name: 'logo.svg', type, bytes: svg });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(PROFILE_MESSAGES.photoType);
    }
    expect(await t.db.selectFrom('files').select('id').execute()).toEqual([]);
  });

  it('processes at most 10 pictures per user in 10 minutes', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const picture = await png(16, 16);
    for (let i = 0; i < 10; i++) {
      expect((await uploadPhoto(cookie, { name: 'me.png', type: 'image/png', bytes: picture })).statusCode).toBe(200);
    }
    const before = await t.db
      .selectFrom('users')
      .select('photo_file_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const refused = await uploadPhoto(cookie, { name: 'me.png', type: 'image/png', bytes: picture });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('You have uploaded too many pictures. Please wait 10 minutes and try again.');
    const after = await t.db
      .selectFrom('users')
      .select('photo_file_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    const other = await t.userWithSession('student');
    expect((await uploadPhoto(other.cookie, { name: 'me.png', type: 'image/png', bytes: picture })).statusCode).toBe(
      200,
    );
  });

  it('refuses a text file renamed .png', async () => {
    const { cookie } = await t.userWithSession('student');
    const response = await uploadPhoto(cookie, {
      name: 'notes.png',
      type: 'image/png',
      bytes: Buffer.from('just some text\n'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(PROFILE_MESSAGES.photoType);
  });

  it('refuses a file over 2 MB with 413', async () => {
    const { cookie } = await t.userWithSession('student');
    const big = Buffer.concat([await png(), Buffer.alloc(3 * 1024 * 1024, 1)]);
    const response = await uploadPhoto(cookie, { name: 'big.png', type: 'image/png', bytes: big });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe(PROFILE_MESSAGES.photoTooLarge);
    expect(await t.db.selectFrom('files').select('id').execute()).toEqual([]);
  });

  it('refuses a tiny PNG declaring 20000 x 20000 pixels, quickly and without decoding it', async () => {
    const { cookie } = await t.userWithSession('student');
    const bomb = decompressionBombPng();
    expect(bomb.length).toBeLessThan(2048);
    const started = Date.now();
    const response = await uploadPhoto(cookie, { name: 'bomb.png', type: 'image/png', bytes: bomb });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(PROFILE_MESSAGES.photoTooManyPixels);
  });

  it('needs the file in the field `file`', async () => {
    const { cookie } = await t.userWithSession('student');
    const wrongField = await uploadPhoto(cookie, { name: 'me.png', type: 'image/png', bytes: await png() }, 'picture');
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().error).toBe(PROFILE_MESSAGES.photoMissing);
    const json = await t.request({ method: 'PUT', url: '/api/profile/photo', cookie, body: {} });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe(PROFILE_MESSAGES.photoMissing);
  });
});

describe('GET /api/users/:id/photo', () => {
  it('answers 404 for a user without a picture or no such user', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const none = await t.request({ method: 'GET', url: `/api/users/${user.id}/photo`, cookie });
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe(PROFILE_MESSAGES.noPhoto);
    const unknown = await t.request({ method: 'GET', url: '/api/users/nobody/photo', cookie });
    expect(unknown.statusCode).toBe(404);
  });
});
