import { randomBytes } from 'node:crypto';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { publishScenario } from '../fixtures/scenario-files';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInAsAdmin, signInPage, type SeededUser } from '../support/api';

const SHOTS = process.env.SHOTS_DIR;
// These tests walk many screens in a row on a shared 2-core machine: each screen gets longer to appear.
const expect = baseExpect.configure({ timeout: 20_000 });

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

/** A one-step scenario whose right answer is `Scope every mailbox (<tag>)`. */
const oneStep = (id: string, title: string) => `id: ${id}
name: "${title}"
type: Phishing
difficulty: 1
description: "${title}: a one-step drill for the programme tests."
steps:
  - id: scope
    title: "Scope it (${title})"
    description: A lure reached the finance team.
    mitre_attack: T1566.001
    options:
      - text: "Scope every mailbox (${title})"
        feedback: Right.
      - text: "Ignore it (${title})"
        feedback: Not enough.
    correct_option: 0
`;

const tag = randomBytes(3).toString('hex');
const first = { id: `e2e-prog-a-${tag}`, name: `Path drill A ${tag}` };
const second = { id: `e2e-prog-b-${tag}`, name: `Path drill B ${tag}` };
const pathName = `Phishing path ${tag}`;
const cohortName = `Blue team ${tag}`;
let trainee: SeededUser;
let pathId: string;

test.beforeAll(async () => {
  const admin = await adminApi();
  await publishScenario(admin, oneStep(first.id, first.name), `${first.id}.yaml`);
  await publishScenario(admin, oneStep(second.id, second.name), `${second.id}.yaml`);
  const created = await admin.post('/api/paths', {
    data: { name: pathName, description: 'Two drills, one after another.', scenarioIds: [first.id, second.id] },
  });
  expect(created.status()).toBe(201);
  pathId = ((await created.json()) as { id: string }).id;
  await admin.dispose();
  trainee = await seedUser({ firstName: 'Robin', lastName: `Analyst ${tag}` });
});

/** Plays the one-step scenario that the dashboard's button opened, rightly, to its end. */
async function playOpened(page: Page, scenario: { name: string }) {
  await expect(page.getByRole('heading', { level: 1, name: scenario.name })).toBeVisible();
  await page.getByRole('button', { name: `Scope every mailbox (${scenario.name})` }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Simulation Complete!' })).toBeVisible();
}

test.describe.configure({ timeout: 240_000 });

test('an admin groups a trainee and assigns a path with a due date; the trainee plays it to a certificate anyone can verify', async ({
  page,
  browser,
}) => {
  // The admin makes the cohort and adds the trainee, found by search.
  await signInAsAdmin(page);
  await page.goto('/admin/cohorts');
  await expect(page.getByRole('heading', { level: 1, name: 'Cohorts' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(cohortName);
  await page.getByRole('button', { name: 'Create cohort' }).click();
  await expect(page.getByRole('heading', { level: 1, name: cohortName })).toBeVisible();
  await page.getByLabel('Find trainees by name or email').fill(trainee.email);
  await page.getByRole('checkbox', { name: new RegExp(trainee.email) }).check();
  await page.getByRole('button', { name: 'Add selected (1)' }).click();
  await expect(page.getByRole('heading', { name: 'Members (1)' })).toBeVisible();

  // It assigns the path, due in a week.
  const due = new Date(Date.now() + 7 * 86_400_000);
  const local = new Date(due.getTime() - due.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  // The picker asks the server for the paths whose name holds what is typed (the first 20 by name when empty).
  const pathPicker = page.getByRole('combobox', { name: 'Learning path' });
  await pathPicker.click();
  await pathPicker.fill(`path ${tag}`);
  await expect(page.getByRole('option', { name: pathName })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'path-picker');
  await page.getByRole('option', { name: pathName }).click();
  await expect(pathPicker).toHaveValue(pathName);
  await pathPicker.click();
  await pathPicker.fill('no path is called this');
  await expect(page.getByText('No learning path has that in its name')).toBeVisible();
  // Leaving the box keeps the chosen path.
  await page.getByLabel('Due (optional)').click();
  await expect(pathPicker).toHaveValue(pathName);
  await page.getByLabel('Due (optional)').fill(local);
  await page.getByLabel('Note (optional)').fill('Finish before the exercise.');
  await page.getByRole('button', { name: 'Assign to cohort' }).click();
  const matrix = page.getByRole('table', { name: 'Progress' });
  await expect(matrix.getByRole('columnheader', { name: new RegExp(pathName) })).toBeVisible();
  await expect(matrix.getByRole('row', { name: new RegExp(`Robin Analyst ${tag}`) })).toContainText('Not started');
  await expectAccessible(page);

  // The trainee sees it first on the dashboard and starts it in one click.
  const context = await browser.newContext();
  const traineePage = await context.newPage();
  await signInPage(traineePage, trainee);
  await traineePage.goto('/dashboard');
  const assigned = traineePage.getByRole('region', { name: 'Assigned to me' });
  const card = assigned.getByRole('article', { name: pathName });
  await expect(card).toContainText('Not started', { timeout: 20_000 });
  await expect(card).toContainText('0 of 2 passed');
  await expect(card).toContainText('Finish before the exercise.');
  await expectAccessible(traineePage);
  await shoot(traineePage, 'trainee-dashboard');
  await card.getByRole('link', { name: `Start ${first.name}` }).click();
  await playOpened(traineePage, first);

  await traineePage.goto('/dashboard');
  await expect(card).toContainText('1 of 2 passed');
  await expect(card).toContainText('In progress');
  await card.getByRole('link', { name: `Start ${second.name}` }).click();
  await playOpened(traineePage, second);

  // The run that completes the path earned the certificate as it ended: the bell says so before any path page.
  await traineePage.getByRole('button', { name: /^Notifications, [1-9]\d* unread$/ }).click();
  const notice = traineePage.getByText(`Certificate earned: you completed the learning path "${pathName}"`, {
    exact: false,
  });
  await expect(notice).toBeVisible();
  // Its "Open" link leads to the path page.
  await traineePage.locator('div', { has: notice }).last().getByRole('link', { name: 'Open' }).click();
  await expect(traineePage).toHaveURL(new RegExp(`/paths/${pathId}$`));

  // The path page shows it complete, with the certificate and its verification link.
  await traineePage.goto(`/paths/${pathId}`);
  await expect(traineePage.getByText('2 of 2 passed')).toBeVisible({ timeout: 20_000 });
  await expect(traineePage.getByRole('link', { name: 'Download certificate (PDF)' })).toBeVisible();
  const pdf = await traineePage.request.get(
    (await traineePage.getByRole('link', { name: 'Download certificate (PDF)' }).getAttribute('href'))!,
  );
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const verifyPath = (await traineePage.getByRole('link', { name: 'Verification page' }).getAttribute('href'))!;
  expect(verifyPath).toMatch(/^\/verify\//);
  await expectAccessible(traineePage);
  await traineePage.goto('/dashboard');
  await expect(card).toContainText('Passed');
  await context.close();

  // Signed out, anyone can check it.
  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  await visitor.goto(verifyPath);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Certificate verification' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(visitor.getByText('Genuine')).toBeVisible();
  await expect(visitor.getByText(`Robin Analyst ${tag}`)).toBeVisible();
  await expectAccessible(visitor);
  await shoot(visitor, 'verify-genuine');
  await visitor.goto('/verify/no-such-code');
  await expect(visitor.getByText('No certificate has this code.')).toBeVisible();
  await anonymous.close();

  // The cohort page shows the trainee's pass and the coverage heatmap.
  await page.reload();
  await expect(matrix.getByRole('row', { name: new RegExp(`Robin Analyst ${tag}`) })).toContainText('Passed');
  await expect(page.getByText(/T1566\.001 · 100%/).first()).toBeVisible();
  await shoot(page, 'cohort-page');
});

test('a trainee whose assignment passes its due date is told it is overdue, and the admin reads the item analysis', async ({
  page,
}) => {
  const admin = await adminApi();
  const late = await seedUser({ firstName: 'Lee', lastName: `Late ${tag}` });
  const created = await admin.post('/api/assignments', {
    data: { scenarioId: first.id, userIds: [late.id], dueAt: new Date(Date.now() + 2_000).toISOString() },
  });
  expect(created.status()).toBe(201);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  // What the server does every minute, now.
  expect((await admin.post('/api/assignments/check-due')).ok()).toBe(true);
  await admin.dispose();

  await signInPage(page, late);
  await page.goto('/dashboard');
  await expect(
    page.getByRole('region', { name: 'Assigned to me' }).getByRole('article', { name: first.name }),
  ).toContainText('Overdue', { timeout: 20_000 });
  const bell = page.getByRole('button', { name: /^Notifications, [1-9]\d* unread$/ });
  await bell.click();
  await expect(page.getByText(`Overdue: "${first.name}" was due`, { exact: false })).toBeVisible();
  await page.keyboard.press('Escape');

  // The admin reads the item analysis of the first drill.
  await page.context().clearCookies();
  await signInAsAdmin(page);
  await page.goto(`/admin/item-analysis?scenario=${first.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Item analysis' })).toBeVisible({ timeout: 20_000 });
  const steps = page.getByRole('table', { name: 'Steps, most attention first' });
  await expect(steps.getByRole('row', { name: new RegExp(`Scope it \\(${first.name}\\)`) })).toContainText(
    `Scope every mailbox (${first.name}): 1 / 0`,
  );
  const versions = page.getByRole('combobox', { name: 'Version' });
  await expect(versions).toHaveValue('Version 1 (current) · 1 run');
  // The scenario picker names the scenario of the link, and finds others by name.
  const scenarioPicker = page.getByRole('combobox', { name: 'Scenario' });
  await expect(scenarioPicker).toHaveValue(first.name);
  await scenarioPicker.click();
  await scenarioPicker.fill(second.name);
  await expect(page.getByRole('option', { name: second.name })).toBeVisible();
  await shoot(page, 'scenario-picker');
  await page.keyboard.press('Escape');
  await expectAccessible(page);
  await shoot(page, 'item-analysis');

  // A second version of the drill, with other options: the analysis reads one version at a time.
  const author = await adminApi();
  await author.post('/api/sim/upload-scenario', {
    multipart: {
      file: {
        name: `${first.id}.yaml`,
        mimeType: 'application/yaml',
        buffer: Buffer.from(oneStep(first.id, first.name).replace('Ignore it', 'Wait and see')),
      },
    },
  });
  const draft = (await (await author.get(`/api/sim/${first.id}/draft`)).json()) as { revision: number };
  expect((await author.post(`/api/sim/${first.id}/publish`, { data: { revision: draft.revision } })).ok()).toBe(true);
  await author.dispose();
  await page.reload();
  // Version 2 has no runs yet: version 1 (the newest with runs) stays the one shown; the selector offers both.
  await expect(versions).toHaveValue('Version 1 · 1 run');
  await versions.click();
  await page.getByRole('option', { name: 'Version 2 (current) · 0 runs' }).click();
  await expect(page.getByText('Version 2: 0 runs, 0 finished.')).toBeVisible();
  await expect(steps.getByRole('row', { name: new RegExp(`Scope it \\(${first.name}\\)`) })).toContainText(
    `Wait and see (${first.name}): 0 / 0`,
  );
  await expect(page).toHaveURL(/version=2/);
});

test('an admin edits the path: renamed, reordered, all open; the certificate already issued stays valid', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/admin/paths');
  await expect(page.getByRole('heading', { level: 1, name: 'Learning paths' })).toBeVisible({ timeout: 20_000 });
  // The list is a page at a time, searched by name.
  await page.getByRole('textbox', { name: 'Search' }).fill(pathName);
  const paths = page.getByRole('table', { name: 'Learning paths' });
  await expect(paths.getByRole('row')).toHaveCount(2);
  await expect(paths).toHaveAttribute('aria-busy', 'false'); // the unsearched list is dimmed until the answer
  await expect(paths.getByRole('row', { name: new RegExp(pathName) })).toContainText('One after another');
  await expectAccessible(page);
  await shoot(page, 'paths-admin');
  await page.getByRole('button', { name: `Edit ${pathName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit learning path' });
  await expect(dialog.getByLabel('Name')).toHaveValue(pathName);
  await dialog.getByLabel('Name').fill(`${pathName} (edited)`);
  await dialog.getByText('All open').click();
  await expect(dialog.getByRole('radio', { name: 'All open' })).toBeChecked();
  await dialog.getByRole('button', { name: `Move ${second.name} up` }).click();
  const order = dialog.getByRole('list', { name: 'Order of the scenarios' });
  await expect(order.getByRole('listitem').first()).toContainText(second.name);
  await expectAccessible(page);
  await shoot(page, 'path-edit');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(`${pathName} \\(edited\\)`) });
  await expect(row).toContainText('All open');

  // The cohorts list is searched by name the same way.
  await page.goto('/admin/cohorts');
  await page.getByRole('textbox', { name: 'Search' }).fill(cohortName);
  const cohorts = page.getByRole('table', { name: 'Cohorts' });
  await expect(cohorts.getByRole('row')).toHaveCount(2);
  await expect(cohorts).toHaveAttribute('aria-busy', 'false');
  await expect(cohorts.getByRole('row', { name: new RegExp(cohortName) })).toContainText('Active');
  await expectAccessible(page);
  await shoot(page, 'cohorts');

  // The trainee's path page follows the new order; their certificate is still genuine.
  await page.goto(`/paths/${pathId}`);
  await expect(page.getByRole('heading', { level: 1, name: `${pathName} (edited)` })).toBeVisible();
  const certificates = await adminApi();
  const issued = (await (await certificates.get(`/api/paths/${pathId}/certificates`)).json()) as {
    items: { code: string }[];
  };
  await certificates.dispose();
  expect(issued.items).toHaveLength(1);
  const verified = await page.request.get(`/api/verify/${issued.items[0]!.code}`);
  expect(((await verified.json()) as { status: string }).status).toBe('genuine');
});
