import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';

const BOUNDARY = 'readuploadboundary';

/** A multipart body whose file never ends: the size limit is the only way to stop reading it. */
function unterminatedUpload(bytes: number): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: image/png\r\n\r\n${'\u0000'.repeat(bytes)}`;
}

// Found by the hostile-files campaign (bench/): an upload over the limit was read to its very end (1 GB) and
// then refused as unreadable; it is now refused with 413 as soon as it passes the limit.
describe('an upload larger than its limit', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await t.userWithSession('admin')).cookie;
  });
  afterAll(() => t.close());

  const send = (url: string, method: 'PUT' | 'POST', bytes: number) =>
    t.app.inject({
      method,
      url,
      headers: {
        origin: 'http://localhost:8080',
        cookie: `tc_session=${cookie}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: unterminatedUpload(bytes),
    });

  it('is refused with 413 and the size in the message, for a profile picture', async () => {
    const response = await send('/api/profile/photo', 'PUT', 3 * 1024 * 1024);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'The picture must be at most 2 MB.' });
    expect(response.headers.connection).toBe('close');
  });

  it('is refused with 413 and the size in the message, for a scenario file', async () => {
    const response = await send('/api/sim/upload-scenario', 'POST', 2 * 1024 * 1024);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ problems: ['(file): is larger than 1 MB'] });
  });
});
