import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { TUTORIAL_SCENARIO_ID, type RunState } from '@tradecraft/shared';
import { publishScenario, scenarioFile } from '../fixtures/scenario-files';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInPage, type SeededUser } from '../support/api';
import { E2E_ADMIN } from '../playwright.config';

/** Plays a run through the API: answers each step with the option of that text, moving on after each. */
async function play(request: APIRequestContext, scenarioId: string, answers: string[]): Promise<RunState> {
  let { run } = (await (await request.post('/api/runs', { data: { scenarioId } })).json()) as { run: RunState };
  for (const text of answers) {
    const step = run.currentStep!;
    const optionIndex = 'options' in step ? step.options.findIndex((option) => option.text === text) : -1;
    expect(optionIndex, `option "${text}" on ${step.id}`).toBeGreaterThanOrEqual(0);
    const answered = await request.post(`/api/runs/${run.id}/answer`, {
      data: { stepId: step.id, optionIndex, timeMs: 1000 },
    });
    expect(answered.ok()).toBe(true);
    run = ((await (await request.post(`/api/runs/${run.id}/next`)).json()) as { run: RunState }).run;
  }
  return run;
}

const PERFECT = ['Pull the message from every mailbox and sandbox it', 'Isolate both hosts', 'Share the indicators'];

async function signInThroughForm(page: Page, user: { email: string; password: string }) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

test.describe('the scenario picker knows the trainee', () => {
  let trainee: SeededUser;
  const tag = randomBytes(3).toString('hex');
  const names = { fresh: `Fresh drill ${tag}`, going: `Going drill ${tag}`, done: `Done drill ${tag}` };
  const ids: Record<keyof typeof names, string> = { fresh: '', going: '', done: '' };

  test.beforeAll(async () => {
    const admin = await adminApi();
    for (const [key, name] of Object.entries(names) as [keyof typeof names, string][]) {
      ids[key] = await publishScenario(
        admin,
        scenarioFile({ name, type: `Drill ${tag}`, difficulty: key === 'done' ? 1 : 4 }),
      );
    }
    await admin.dispose();
    trainee = await seedUser();
  });

  test('each card says not started, in progress at which step, or completed with the best score', async ({ page }) => {
    await signInPage(page, trainee);
    await play(page.request, ids.going, [PERFECT[0]!]);
    await play(page.request, ids.done, PERFECT);
    // A weaker second run: a detour, then back on the way to the end.
    const weaker = await play(page.request, ids.done, [PERFECT[0]!, 'Watch for a week', 'Wait', ...PERFECT.slice(1)]);
    expect(weaker.status).toBe('completed');

    await page.goto('/scenarios');
    const card = (name: string) => page.getByTestId('scenario-card').filter({ hasText: name });
    await expect(card(names.fresh).getByTestId('scenario-progress')).toHaveText('Not started');
    await expect(card(names.going).getByTestId('scenario-progress')).toHaveText('In progress · step 2');
    await expect(card(names.done).getByTestId('scenario-progress')).toHaveText('Completed · best 100% (Pass), 2 runs');
    await expectAccessible(page);
  });

  test('search, filters and sort live in the address, so a link shows the same view', async ({ page }) => {
    await signInPage(page, trainee);
    await page.goto('/scenarios');
    const cards = page.getByTestId('scenario-card');
    await expect(cards.filter({ hasText: tag })).toHaveCount(3);

    await page.getByRole('searchbox', { name: 'Search' }).fill(`fresh drill ${tag}`);
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(names.fresh);
    await expect(page).toHaveURL(/[?&]q=fresh\+drill/);

    // A technique id finds every scenario practising it, and the card says which technique matched.
    await page.getByRole('searchbox', { name: 'Search' }).fill('t1566.001');
    await expect(cards.filter({ hasText: tag })).toHaveCount(3);
    await expect(cards.filter({ hasText: names.fresh })).toContainText('Practises T1566.001');

    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: `Drill ${tag}`, exact: true }).click();
    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Not yet played', exact: true }).click();
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(0)).toContainText(names.fresh);
    await expect(cards.nth(1)).toContainText(names.going);
    await expect(cards.nth(2)).toContainText(names.done);
    await expect(page).toHaveURL(/[?&]q=t1566\.001(&|$)/);
    const shared = page.url();
    expect(shared).toContain('sort=unplayed');

    // The same link in a fresh page draws the same view.
    const other = await page.context().newPage();
    await other.goto(shared);
    await expect(other.getByRole('searchbox', { name: 'Search' })).toHaveValue('t1566.001');
    await expect(other.getByRole('combobox', { name: 'Type' })).toHaveValue(`Drill ${tag}`);
    await expect(other.getByRole('combobox', { name: 'Sort by' })).toHaveValue('Not yet played');
    const otherCards = other.getByTestId('scenario-card');
    await expect(otherCards).toHaveCount(3);
    await expect(otherCards.nth(0)).toContainText(names.fresh);
    await expect(otherCards.nth(2)).toContainText(names.done);

    await other.goto(`/scenarios?type=${encodeURIComponent(`Drill ${tag}`)}&sort=difficulty`);
    await expect(otherCards.nth(0)).toContainText(names.done);
    await expectAccessible(other);
  });
});

test('a new trainee is recommended the tutorial first, on the picker and on the dashboard', async ({ page }) => {
  await signInPage(page, await seedUser());
  await page.goto('/scenarios');
  const first = page.getByTestId('scenario-card').first();
  await expect(first).toContainText('Tutorial: your first case');
  await expect(first.getByText('Start here', { exact: true })).toBeVisible();
  await expect(first.getByRole('link', { name: /Start Simulation/ })).toHaveAttribute(
    'href',
    `/simulation/${TUTORIAL_SCENARIO_ID}`,
  );

  await page.goto('/dashboard');
  const firstRecommendation = page.getByRole('region', { name: 'Recommended next' }).getByRole('article').first();
  await expect(firstRecommendation).toContainText('Tutorial: your first case');
  await expect(firstRecommendation).toContainText('Start here');
  await expectAccessible(page);
});

test('the feedback draws its check and cross as icons and keeps the words', async ({ page }) => {
  const admin = await adminApi();
  const tag = randomBytes(3).toString('hex');
  const id = await publishScenario(
    admin,
    scenarioFile({ name: `Marks drill ${tag}`, type: 'Phishing', difficulty: 2 }),
  );
  await admin.dispose();
  await signInPage(page, await seedUser());
  await page.goto(`/simulation/${id}`);
  await page.getByRole('button', { name: /Ask the user to open it again/ }).click();
  const feedback = page.getByRole('group', { name: 'Feedback' });
  await expect(feedback).toContainText(
    'Incorrect. The correct answer was: "Pull the message from every mailbox and sandbox it"',
  );
  await expect(feedback.locator('svg.tabler-icon-circle-x')).toBeVisible();
  await page.getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('button', { name: /Pull the message from every mailbox/ }).click();
  await expect(feedback).toContainText('Correct!');
  await expect(feedback.locator('svg.tabler-icon-circle-check')).toBeVisible();
  // No emoji or symbol character is left to draw as an empty box.
  expect(await page.locator('main').innerText()).not.toMatch(/[\u2600-\u27bf\u{1f300}-\u{1faff}\u25d0]/u);
  await expectAccessible(page);
});

test('the app draws its own typeface, loaded from its own address', async ({ page }) => {
  const fontRequests: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'font') fontRequests.push(request.url());
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Inter Variable"/);
  expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true);
  expect(fontRequests.length).toBeGreaterThan(0);
  const origin = new URL(page.url()).origin;
  for (const url of fontRequests) expect(new URL(url).origin).toBe(origin);
});

test('each page has its own title, the player and the 404 page included', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Sign in · Tradecraft');
  await signInPage(page, await seedUser());
  await page.goto('/scenarios');
  await expect(page).toHaveTitle('Scenarios · Tradecraft');
  await page.getByRole('link', { name: 'ATT&CK Skill Map' }).click();
  await expect(page).toHaveTitle('ATT&CK Skill Map · Tradecraft');
  await page.goto(`/simulation/${TUTORIAL_SCENARIO_ID}`);
  await expect(page).toHaveTitle('Tutorial: your first case · Tradecraft');
  await page.goto('/no-such-page');
  await expect(page).toHaveTitle('Page Not Found · Tradecraft');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test.describe('links survive sign-in', () => {
  test('a signed-out visit to the skill map lands there after signing in', async ({ page }) => {
    const trainee = await seedUser();
    await page.goto('/skills');
    await expect(page).toHaveURL(/\/login\?next=%2Fskills$/);
    await signInThroughForm(page, trainee);
    await expect(page).toHaveURL(/\/skills$/);
    await expect(page).toHaveTitle('ATT&CK Skill Map · Tradecraft');
    await expectAccessible(page);
  });

  test('a report link a lead shared opens the report after the lead signs in', async ({ page }) => {
    const admin = await adminApi();
    const tag = randomBytes(3).toString('hex');
    const id = await publishScenario(
      admin,
      scenarioFile({ name: `Shared drill ${tag}`, type: 'Phishing', difficulty: 2 }),
    );
    await admin.dispose();
    const trainee = await seedUser();
    const traineePage = await page.context().browser()!.newPage();
    await signInPage(traineePage, trainee);
    const run = await play(traineePage.request, id, PERFECT);
    await traineePage.close();
    expect(run.status).toBe('completed');

    await page.goto(`/runs/${run.id}/report`);
    await expect(page).toHaveURL(/\/login\?next=/);
    await signInThroughForm(page, E2E_ADMIN);
    await expect(page).toHaveURL(new RegExp(`/runs/${run.id}/report$`));
    // The loaded report is headed by its scenario, under "After-action report".
    await expect(page.getByRole('heading', { name: `Shared drill ${tag}`, level: 1 })).toBeVisible();
    await expect(page.getByText('After-action report', { exact: true })).toBeVisible();
    await expect(page).toHaveTitle(`After-action report: Shared drill ${tag} · Tradecraft`);
  });

  for (const outside of [
    'https://evil.example/skills',
    '//evil.example/skills',
    '/\\evil.example',
    '/%2F%2Fevil.example',
  ]) {
    test(`an outside address in the return parameter is ignored (${outside})`, async ({ page }) => {
      const trainee = await seedUser();
      await page.goto(`/login?next=${encodeURIComponent(outside)}`);
      await signInThroughForm(page, trainee);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { name: 'Progress Dashboard' })).toBeVisible();
    });
  }
});
