import { expect, request, test } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { expectAccessible } from '../support/a11y';
import { signInAsAdmin } from '../support/api';

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
