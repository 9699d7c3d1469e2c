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
  // Eight filter changes over a library that has grown to 80 scenarios by this point of the suite.
  test.slow();
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

test('a scenario in progress: the card resumes it, and Start over asks, then starts anew keeping the old run', async ({
  page,
}) => {
  const tag = randomBytes(3).toString('hex');
  const name = `Resume drill ${tag}`;
  const admin = await adminApi();
  const scenarioId = await publishScenario(admin, scenarioFile({ name, type: `Drill ${tag}`, difficulty: 2 }));
  await admin.dispose();

  await signInPage(page, await seedUser());
  const started = await page.request.post('/api/runs', { data: { scenarioId } });
  expect(started.status()).toBe(201);
  const firstRunId = ((await started.json()) as { run: { id: string } }).run.id;

  await page.goto(`/scenarios?q=${encodeURIComponent(name)}`);
  const card = page.getByTestId('scenario-card').filter({ hasText: name });
  await expect(card.getByTestId('scenario-progress')).toHaveText('In progress · step 1');
  // Start Simulation goes on with the run in progress instead of starting a second one.
  await expect(card.getByRole('link', { name: /Start Simulation/ })).toHaveCount(0);
  const resume = card.getByRole('link', { name: `Resume Simulation: ${name}` });
  await expect(resume).toHaveAttribute('href', `/simulation/${scenarioId}?simId=${firstRunId}&resume=1`);

  // Start over asks first, naming the scenario and saying the old run is kept; Cancel changes nothing.
  await card.getByRole('button', { name: `Start over: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Start "${name}" over?` });
  await expect(dialog).toContainText(`Your unfinished run of ${name} ends now. It is kept in your history`);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(
    ((await (await page.request.get(`/api/runs/${firstRunId}`)).json()) as { run: { status: string } }).run.status,
  ).toBe('in_progress');

  await card.getByRole('button', { name: `Start over: ${name}` }).click();
  await dialog.getByRole('button', { name: 'Start over' }).click();
  await expect(page.getByRole('heading', { level: 2, name: `Triage the alert (${name})` })).toBeVisible();
  await expect(page).toHaveURL(/\?simId=/);
  const secondRunId = new URL(page.url()).searchParams.get('simId');
  expect(secondRunId).not.toBe(firstRunId);
  // The old run is kept in history, ended.
  expect(
    ((await (await page.request.get(`/api/runs/${firstRunId}`)).json()) as { run: { status: string } }).run.status,
  ).toBe('ended');

  await page.goto(`/scenarios?q=${encodeURIComponent(name)}`);
  await expect(card.getByRole('link', { name: `Resume Simulation: ${name}` })).toHaveAttribute(
    'href',
    `/simulation/${scenarioId}?simId=${secondRunId}&resume=1`,
  );
});
