import path from 'node:path';
import { AUTH_MESSAGES } from '@tradecraft/shared';
import { expect, request, test, type Page } from '@playwright/test';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { generate } from 'otplib';
import { baseURL } from '../playwright.config';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInAsAdmin, signInPage, type SeededUser } from '../support/api';
import { startExtraServer } from '../support/extra-server';

// The SQLite driver this Node loads, as the server picks it (apps/server/src/db/sqlite-driver.ts): better-sqlite3 12
// on Node 20, its Node-API build 13 on Node 22 and later.
const Database = createRequire(import.meta.url)(
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3',
) as typeof BetterSqlite3;

const SHOTS = process.env.SHOTS_DIR;

/** Screenshots at 1280 and 375 px, light and dark, when SHOTS_DIR is set (looked at by hand, never compared). */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const size = page.viewportSize()!;
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((value) => document.documentElement.setAttribute('data-mantine-color-scheme', value), scheme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-${scheme}-${width}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
  await page.setViewportSize(size);
}

async function signInWithPassword(page: Page, user: SeededUser): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

test('an authenticator app is enrolled with its QR code, and sign-in then asks for a code from it', async ({
  page,
}) => {
  const user = await seedUser();
  await signInPage(page, user);
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Add authenticator app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
  await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').textContent())!;
  await expectAccessible(page);
  await shoot(page, 'totp-enrol');
  await dialog.getByLabel('6-digit code').fill(await generate({ secret }));
  await dialog.getByRole('button', { name: 'Add app' }).click();

  const codes = page.getByRole('dialog', { name: 'Your recovery codes' });
  await expect(codes.getByTestId('recovery-codes').locator('code')).toHaveCount(10);
  await expectAccessible(page);
  await shoot(page, 'recovery-codes');
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByRole('list', { name: 'Your second factors' })).toContainText('Authenticator app');
  await expect(page.getByText('10 of 10 recovery codes left')).toBeVisible();

  await page.context().clearCookies();
  await page.goto('/login');
  await signInWithPassword(page, user);
  await expect(page.getByText('Your account has a second factor')).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'second-step-code');
  // A code of the next 30-second step: the enrolment used this one, and each step's code works once.
  await page
    .getByLabel(/Code from your authenticator app/)
    .fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: /notifications/i })).toBeVisible();
});

test('a passkey is created with the virtual authenticator and signs in as the second step', async ({ page }) => {
  // Browsers refuse an IP address as a passkey's relying party, so this test uses the localhost name.
  const origin = baseURL.replace('127.0.0.1', 'localhost');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const user = await seedUser();
  await page.goto(`${origin}/login`);
  await signInWithPassword(page, user);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${origin}/settings`);
  await page.getByRole('button', { name: 'Add passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Name').fill('Laptop');
  await dialog.getByRole('button', { name: 'Create passkey' }).click();
  await page
    .getByRole('dialog', { name: 'Your recovery codes' })
    .getByRole('button', { name: 'I have saved them' })
    .click();
  await expect(page.getByRole('list', { name: 'Your second factors' })).toContainText('Laptop');
  await expectAccessible(page);
  await shoot(page, 'settings-factors');

  await page.context().clearCookies();
  await page.goto(`${origin}/login`);
  await signInWithPassword(page, user);
  await expect(page.getByRole('button', { name: 'Use your passkey' })).toBeVisible();
  await shoot(page, 'second-step-passkey');
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${origin}/settings`);
  await expect(page.getByRole('list', { name: 'Your second factors' })).toContainText(/last used (?!never)\S/);
});

test('Settings lists the sessions, marks this one, and ends the others', async ({ page, browser }) => {
  const user = await seedUser();
  const other = await browser.newContext({ baseURL, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' });
  await signInPage(await other.newPage(), user);
  await signInPage(page, user);
  await page.goto('/settings');
  const sessions = page.getByRole('list', { name: 'Active sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByText('This browser')).toHaveCount(1);
  await expect(sessions).toContainText('Firefox on Linux');
  await expectAccessible(page);
  await shoot(page, 'sessions');
  await page.getByRole('button', { name: 'End all other sessions' }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  const otherMe = await (await other.newPage()).request.get(`${baseURL}/api/auth/me`);
  expect((await otherMe.json()).user).toBeNull();
  await other.close();
});

test("three wrong passwords reach every admin's bell, and the lock is lifted from there", async ({ page }) => {
  const user = await seedUser();
  const anonymous = await request.newContext({ baseURL });
  for (let i = 0; i < 3; i++) {
    await anonymous.post('/api/auth/login', { data: { email: user.email, password: 'Wrong-pass-1!' } });
  }
  const locked = await anonymous.post('/api/auth/login', { data: { email: user.email, password: user.password } });
  expect((await locked.json()).error).toBe(AUTH_MESSAGES.disabled);

  await signInAsAdmin(page);
  await page.goto('/admin');
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  const notice = page.getByText(`(${user.email}) was locked out after 3 failed sign-ins`);
  await expect(notice).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Lift lock now' }).first().click();
  await expect(page.getByText('Lock lifted.')).toBeVisible();

  const unlocked = await anonymous.post('/api/auth/login', { data: { email: user.email, password: user.password } });
  expect(unlocked.status()).toBe(200);
  await anonymous.dispose();
});

test('after ten minutes, ending the other sessions asks for the password again, then goes ahead', async ({ page }) => {
  test.setTimeout(120_000); // it starts a server of its own
  // A server of its own: the test ages its session in the database, as ten minutes passing would.
  const admin = { email: 'reauth-admin@e2e.test', password: 'Reauth!Admin2026' };
  const server = await startExtraServer(Number(process.env.E2E_PORT ?? 4817) + 200, {
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  });
  try {
    const signedIn = await page.request.post(`${server.baseURL}/api/auth/login`, { data: admin });
    expect(signedIn.ok()).toBe(true);
    const made = await page.request.post(`${server.baseURL}/api/tokens`, {
      data: { name: 'Nightly export', scope: 'read', expiresInDays: 30 },
      headers: { origin: server.baseURL },
    });
    expect(made.status()).toBe(201);
    const database = new Database(path.join(server.dataDir, 'tradecraft.db'));
    try {
      database
        .prepare('update sessions set authenticated_at = ?')
        .run(new Date(Date.now() - 11 * 60_000).toISOString());
    } finally {
      database.close();
    }

    await page.goto(`${server.baseURL}/settings`);
    const revoke = page.getByRole('checkbox', { name: 'Also revoke my API tokens' });
    await expect(revoke).toBeChecked({ timeout: 30_000 });
    await page.getByRole('button', { name: 'End all other sessions and revoke API tokens' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(dialog).toContainText('Changes to your sign-in security need your password again');
    await expectAccessible(page);
    await shoot(page, 'reauthenticate');
    await dialog.getByRole('textbox', { name: 'Password' }).fill('Not-my-password1!');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('That password is not right.');
    await dialog.getByRole('textbox', { name: 'Password' }).fill(admin.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Other sessions ended' })).toHaveText(
      'Other sessions ended; 1 API token revoked.',
    );
    await expectAccessible(page);
    await shoot(page, 'sessions-ended');
  } finally {
    await server.stop();
  }
});
