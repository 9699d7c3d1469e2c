import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { publishScenario, scenarioFile } from '../fixtures/scenario-files';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInPage } from '../support/api';

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the picker filters by type and difficulty, and says so when nothing matches', async ({ page }) => {
  // Types of their own, so the library the server loads never gets in the way.
  const tag = randomBytes(3).toString('hex');
  const drill = `Drill ${tag}`;
  const exercise = `Exercise ${tag}`;
  const admin = await adminApi();
  await publishScenario(admin, scenarioFile({ name: `Easy drill ${tag}`, type: drill, difficulty: 1 }));
  const hardId = await publishScenario(admin, scenarioFile({ name: `Hard drill ${tag}`, type: drill, difficulty: 5 }));
  await publishScenario(admin, scenarioFile({ name: `Easy exercise ${tag}`, type: exercise, difficulty: 1 }));
  await admin.dispose();

  await signInPage(page, await seedUser());
  await page.goto('/scenarios');
  await expect(page.getByRole('heading', { name: 'Select a Scenario', level: 1 })).toBeVisible();
  const cards = page.getByTestId('scenario-card');
  await expect(cards.filter({ hasText: tag })).toHaveCount(3);
  await expect(page.getByRole('combobox', { name: 'Difficulty' })).toHaveValue('All Difficulties');
  await expect(page.getByRole('combobox', { name: 'Type' })).toHaveValue('All Types');

  const hard = cards.filter({ hasText: `Hard drill ${tag}` });
  await expect(hard.getByText(drill, { exact: true })).toBeVisible();
  await expect(hard.getByText('Difficulty 5/5')).toBeVisible();
  await expect(hard.getByText('4 steps')).toBeVisible();
  await expect(hard.getByRole('link', { name: /Start Simulation/ })).toHaveAttribute('href', `/simulation/${hardId}`);
  await expectAccessible(page);

  await choose(page, 'Type', drill);
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: `Easy drill ${tag}` })).toBeVisible();
  await expect(hard).toBeVisible();

  await choose(page, 'Difficulty', 'Difficulty 5/5 · Expert');
  await expect(cards).toHaveCount(1);
  await expect(hard).toBeVisible();

  await choose(page, 'Type', exercise);
  await expect(cards).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No scenarios match these filters' })).toBeVisible();
  await page.getByRole('button', { name: 'Reset filters' }).click();
  await expect(cards.filter({ hasText: tag })).toHaveCount(3);
  await expect(page.getByRole('combobox', { name: 'Type' })).toHaveValue('All Types');
});
