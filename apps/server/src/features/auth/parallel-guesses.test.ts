import { AUTH_MESSAGES } from '@tradecraft/shared';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/helper';
import * as passwords from './passwords';
import { LOGIN_FAILURES_PER_ACCOUNT } from './rate-limit';

// Every password check sign-in makes goes through this spy, so the test can count them.
vi.mock('./passwords', async (importOriginal) => {
  const actual = await importOriginal<typeof passwords>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

it('checks at most three passwords of 30 parallel wrong guesses and refuses the right one among them', async () => {
  const user = await t.createUser();
  const verify = vi.mocked(passwords.verifyPassword);
  verify.mockClear();
  const login = (password: string) =>
    t.request({ method: 'POST', url: '/api/auth/login', body: { email: user.email, password } });

  const guesses = Array.from({ length: 30 }, (_, i) => `Wrong!guess${i}`);
  guesses.splice(17, 0, PASSWORD);
  const responses = await Promise.all(guesses.map(login));

  const checked = verify.mock.calls.filter(([hash]) => hash === user.password_hash);
  expect(checked.length).toBeLessThanOrEqual(3);
  // Refused as locked, or by the per-account limit of failures that the burst also reached.
  const right = responses[17]!;
  expect([AUTH_MESSAGES.disabled, LOGIN_FAILURES_PER_ACCOUNT.message]).toContain(right.json().error);
  expect(responses.some((response) => response.statusCode === 200)).toBe(false);
  expect(await t.db.selectFrom('sessions').select('id').execute()).toHaveLength(0);
  const row = await t.db
    .selectFrom('users')
    .select(['disabled', 'locked_until'])
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  expect(row.disabled).toBe(0);
  expect(row.locked_until).not.toBeNull();
});
