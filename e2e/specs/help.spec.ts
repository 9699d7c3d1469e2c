import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ATTACK_NOTICE } from '@tradecraft/shared/attack';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInPage, type SeededUser } from '../support/api';

let student: SeededUser;
test.beforeAll(async () => {
  student = await seedUser();
});

test.beforeEach(async ({ page }) => {
  await signInPage(page, student);
});

test('Help & FAQ: each of the 12 questions opens to its answer', async ({ page }) => {
  await page.goto('/help');
  await expect(page.getByRole('heading', { name: 'Help & FAQ', level: 1 })).toBeVisible();
  const questions = page.getByRole('heading', { level: 3 }).getByRole('button');
  await expect(questions).toHaveCount(12);
  for (const question of await questions.all()) {
    await expect(question).toHaveAttribute('aria-expanded', 'false');
    await question.click();
    await expect(question).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator(`#${await question.getAttribute('aria-controls')}`);
    await expect(panel).toBeVisible();
    await expect(panel).not.toBeEmpty();
  }
  await expectAccessible(page);
});

test('Help & FAQ: the ATT&CK notice and the licence file it links to', async ({ page }) => {
  await page.goto('/help');
  await expect(page.getByText(ATTACK_NOTICE)).toBeVisible();
  const licence = page.getByRole('link', { name: 'Read the ATT&CK licence' });
  const response = await page.request.get((await licence.getAttribute('href'))!);
  expect(response.status()).toBe(200);
  const shipped = fs.readFileSync(
    fileURLToPath(new URL('../../packages/shared/src/attack/ATTACK-LICENSE.txt', import.meta.url)),
    'utf8',
  );
  expect(await response.text()).toBe(shipped);
});

test('Contact Us sends people to open an issue in the configured repository', async ({ page }) => {
  const { repositoryUrl } = (await (await page.request.get('/api/meta')).json()) as { repositoryUrl: string };
  await page.goto('/contact');
  await expect(page.getByRole('heading', { name: 'Contact Us', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: repositoryUrl })).toHaveAttribute('href', repositoryUrl);
  await expect(page.getByRole('link', { name: /Open an issue/ })).toHaveAttribute(
    'href',
    `${repositoryUrl}/issues/new`,
  );
  await expectAccessible(page);
});
