import { expect, request, test, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInAsAdmin, signInPage } from '../support/api';

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

test('an admin makes a read-only token, sees it once, a script reads with it, and revoking it stops it', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/admin/api-tokens');
  await expect(page.getByRole('heading', { name: 'API Tokens' })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Name').fill('Nightly progress export');
  await page.getByRole('button', { name: 'Make token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy your new token now' });
  await expect(dialog).toContainText('This is the only time Nightly progress export is shown.');
  const token = (await dialog.getByLabel('The new API token').textContent())!.trim();
  expect(token).toMatch(/^tc_/);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'I have stored it' }).click();

  const row = page.getByRole('row', { name: /Nightly progress export/ });
  await expect(row).toContainText('Read only');
  await expect(row).toContainText('Active');
  await expect(page.getByText(token)).toHaveCount(0);

  // A script, with no cookie: reads, and may not write.
  const script = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await script.get('/api/progress/all.csv')).status()).toBe(200);
  const write = await script.put('/api/settings/difficulty', { data: { difficulty: 2 } });
  expect(write.status()).toBe(403);

  await page.reload();
  await expect(row).not.toContainText('Never');

  await row.getByRole('button', { name: 'Revoke Nightly progress export' }).click();
  await page.getByRole('dialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Revoked');
  expect((await script.get('/api/progress/all.csv')).status()).toBe(401);
  await script.dispose();
});

test('a password change revokes the API tokens unless the admin unticks "Also revoke my API tokens"', async ({
  page,
}) => {
  test.setTimeout(90_000); // two password changes, each hashed with argon2id
  const admin = await seedUser({ role: 'admin' });
  await signInPage(page, admin);
  const made = await page.request.post('/api/tokens', {
    data: { name: 'CI upload', scope: 'read', expiresInDays: 30 },
  });
  const { token } = (await made.json()) as { token: string };
  const script = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await script.get('/api/auth/me')).status()).toBe(200);

  const changePassword = async (current: string, next: string, revoke: boolean) => {
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.getByLabel('Current Password').fill(current);
    await dialog.getByLabel(/^New Password/).fill(next);
    await dialog.getByLabel('Confirm New Password').fill(next);
    const box = dialog.getByRole('checkbox', { name: 'Also revoke my API tokens' });
    await expect(box).toBeChecked();
    if (!revoke) await box.uncheck();
    await expectAccessible(page);
    if (!revoke) await shoot(page, 'password-change-keep-tokens');
    await dialog.getByRole('button', { name: 'Update Password' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Password updated successfully.');
  };

  await changePassword(admin.password, 'Kept!Tokens2026', false);
  expect((await script.get('/api/auth/me')).status()).toBe(200);
  await page.goto('/admin/api-tokens');
  const row = page.getByRole('row', { name: /CI upload/ });
  await expect(row).toContainText('Active');
  await expect(row).not.toContainText('Never');

  await changePassword('Kept!Tokens2026', 'Revoked!Tokens2026', true);
  expect((await script.get('/api/auth/me')).status()).toBe(401);
  await page.goto('/admin/api-tokens');
  await expect(row).toContainText('Revoked');
  await expectAccessible(page);
  await shoot(page, 'api-tokens-revoked');
  await script.dispose();
});
