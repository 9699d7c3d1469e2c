import { shownOrder, TUTORIAL_SCENARIO_ID, type RunState } from '@tradecraft/shared';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInPage } from '../support/api';

const SHOTS = process.env.SHOTS_DIR;

/** Screenshots at 1280 and 375 px, light and dark, when SHOTS_DIR is set (looked at by hand, never compared). */
async function shoot(page: Page, name: string, show: (page: Page) => Promise<void>): Promise<void> {
  if (!SHOTS) return;
  const size = page.viewportSize()!;
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((value) => document.documentElement.setAttribute('data-mantine-color-scheme', value), scheme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await show(page);
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SHOTS}/${name}-${scheme}-${width}.png` });
    }
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
  await page.setViewportSize(size);
}

/** Plays the tutorial's first steps (three unless told) right through the API. */
async function playToLastStep(api: APIRequestContext, steps = 3): Promise<RunState> {
  const started = await api.post('/api/runs', { data: { scenarioId: TUTORIAL_SCENARIO_ID, startOver: true } });
  expect(started.ok()).toBe(true);
  const run = ((await started.json()) as { run: RunState }).run;
  const answers = [
    { stepId: 'read-the-case', optionIndex: shownOrder(run.id, 'read-the-case', 4).indexOf(1) },
    { stepId: 'grade-the-source', reliability: 'B', credibility: 1 },
    { stepId: 'estimate-next-wave', term: 'likely', confidence: 'moderate' },
  ];
  for (const answer of answers.slice(0, steps)) {
    const answered = await api.post(`/api/runs/${run.id}/answer`, { data: { ...answer, timeMs: 5000 } });
    expect(answered.ok()).toBe(true);
    expect((await api.post(`/api/runs/${run.id}/next`, { data: {} })).ok()).toBe(true);
  }
  return run;
}

const caseFile = (page: Page): Locator => page.getByRole('region', { name: 'Case file', exact: true });
/** The case file as the width shows it: a side panel from 992 px, a drawer below. */
const openCaseFile = (page: Page): Locator =>
  page.viewportSize()!.width >= 992 ? caseFile(page) : page.getByRole('dialog', { name: 'Case file' });
const NOTE = 'Block rota-share.example at the proxy; the sender is 203.0.113.58 (gateway relay field).';

test('the case file holds what the trainee met, pins a line and keeps the notes through End and Resume', async ({
  page,
}) => {
  test.setTimeout(SHOTS ? 300_000 : 120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInPage(page, await seedUser());
  const run = await playToLastStep(page.request);
  await page.goto(`/simulation/${TUTORIAL_SCENARIO_ID}?simId=${run.id}`);
  // The first screen of a freshly started server may take a while on a busy machine.
  await expect(page.getByRole('heading', { name: /Step 4: extract the indicators/ })).toBeVisible({ timeout: 20_000 });

  // The step 1 email is no longer on screen; the case file has it.
  await expect(page.getByRole('article', { name: 'Message forwarded by reception' })).toHaveCount(0);
  await shoot(page, 'case-file-player-header', async (shot) => {
    await expect(shot.getByRole('button', { name: 'Case file' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Case file' }).click();
  const panel = caseFile(page);
  await expect(panel.getByRole('heading', { name: /Step 1: the case file/ })).toBeVisible();
  await expect(panel.getByRole('heading', { name: /Step 2: grading a source/ })).toBeVisible();
  await expect(panel.getByText('3 artifacts from 4 steps you have reached.')).toBeVisible();
  await expect(panel.getByText('TLP:GREEN')).toBeVisible();

  await panel.getByRole('searchbox', { name: 'Search the case file' }).fill('Reply-To');
  await expect(panel.getByText('1 artifact of 3 match "Reply-To".')).toBeVisible();
  const email = panel.getByRole('article', { name: 'Message forwarded by reception' });
  await expect(email).toBeVisible();
  await expect(panel.getByRole('article', { name: 'Health-ISAC member alert HA-2025-1183' })).toHaveCount(0);

  const replyTo = email.getByRole('listitem').filter({ hasText: 'Reply-To: hr.rota@mail-box.example' });
  await replyTo.getByRole('button', { name: /^Pin line \d+$/ }).click();
  await expect(replyTo.getByRole('button', { name: /^Unpin line \d+$/ })).toHaveAttribute('aria-pressed', 'true');
  await panel.getByRole('tab', { name: 'Pinned (1)' }).click();
  await expect(panel.getByRole('list', { name: 'Evidence board' })).toContainText('Reply-To: hr.rota@mail-box.example');

  await panel.getByRole('tab', { name: 'Notebook' }).click();
  await panel.getByRole('textbox', { name: 'Your notes' }).fill(NOTE);
  await expect(panel.getByText(/^Saved at /)).toBeVisible();
  await expectAccessible(page);

  await shoot(page, 'case-file-notebook', async () => {
    await expect(openCaseFile(page)).toBeVisible();
  });

  await panel.getByRole('button', { name: 'Close the case file' }).click();
  await expect(panel).toHaveCount(0);
  await page.getByRole('button', { name: 'End Simulation' }).click();
  await page
    .getByRole('dialog', { name: 'End this simulation?' })
    .getByRole('button', { name: 'End Simulation' })
    .click();

  const notes = page.getByRole('region', { name: 'Your notes' });
  await expect(notes).toContainText(NOTE);
  await expectAccessible(page);
  await shoot(page, 'case-file-debrief-notes', async () => {
    await notes.scrollIntoViewIfNeeded();
  });

  // The after-action report (and its printed PDF) carries the notes too.
  await page.getByRole('link', { name: 'View after-action report' }).click();
  await expect(page.getByRole('region', { name: 'Your notes' })).toContainText(NOTE);
  await page.goBack();
  await page.getByRole('button', { name: 'Resume this run' }).click();
  await expect(page.getByRole('heading', { name: /Step 4: extract the indicators/ })).toBeVisible();
  await page.getByRole('button', { name: 'Case file' }).click();
  await expect(panel.getByRole('tab', { name: 'Pinned (1)' })).toBeVisible();
  await panel.getByRole('tab', { name: 'Notebook' }).click();
  await expect(panel.getByRole('textbox', { name: 'Your notes' })).toHaveValue(NOTE);

  await panel.getByRole('tab', { name: 'Artifacts' }).click();
  await shoot(page, 'case-file-artifacts', async (shot) => {
    const open = openCaseFile(shot);
    await expect(open).toBeVisible();
    await open.getByRole('tab', { name: 'Artifacts' }).click();
    const emailEntry = open.getByRole('article', { name: 'Message forwarded by reception' });
    if ((await emailEntry.getByRole('button', { name: /^Show text/ }).count()) > 0)
      await emailEntry.getByRole('button', { name: /^Show text/ }).click();
  });
});

test('an open case file takes in the next step once the trainee answers beside it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInPage(page, await seedUser());
  const run = await playToLastStep(page.request, 2);
  await page.goto(`/simulation/${TUTORIAL_SCENARIO_ID}?simId=${run.id}`);
  await page.getByRole('button', { name: 'Case file' }).click();
  const panel = caseFile(page);
  await expect(panel.getByText('2 artifacts from 3 steps you have reached.')).toBeVisible();
  await expect(panel.getByText('Mail gateway, messages from the same server this morning')).toHaveCount(0);

  // The decision stays in reach beside the docked case file.
  await page.getByRole('radio', { name: /^Likely/ }).check();
  await page.getByRole('radio', { name: 'Moderate' }).check();
  await page.getByRole('button', { name: 'Submit answer' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: /Step 4: extract the indicators/, level: 2 })).toBeVisible();
  await expect(panel.getByText('3 artifacts from 4 steps you have reached.')).toBeVisible();
  await expect(
    panel.getByRole('article', { name: 'Mail gateway, messages from the same server this morning' }),
  ).toBeVisible();
});

test('on a phone the case file is a drawer over the step, and axe finds nothing', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signInPage(page, await seedUser());
  const run = await playToLastStep(page.request);
  await page.goto(`/simulation/${TUTORIAL_SCENARIO_ID}?simId=${run.id}`);
  await page.getByRole('button', { name: 'Case file' }).click();
  const drawer = page.getByRole('dialog', { name: 'Case file' });
  await expect(drawer.getByRole('heading', { name: /Step 2: grading a source/ })).toBeVisible();
  await drawer.getByRole('searchbox', { name: 'Search the case file' }).fill('203.0.113.58');
  await expect(drawer.getByText('3 artifacts of 3 match "203.0.113.58".')).toBeVisible();
  await expectAccessible(page);
});
