import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { publishScenario } from '../fixtures/scenario-files';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInAsAdmin, signInPage } from '../support/api';
import { ANALYST_STEPS_FIXTURE } from './analyst-steps-fixture';

// The player at every width: every control of every step kind in view and not clipped at 1280 and 375 px, the
// question and its first control on the first screen of a phone, no technique before the verdict, the write
// step's live checks; the admin tables' actions within reach. Screenshots go to SHOTS_DIR when it is set.

const SHOTS = process.env.SHOTS_DIR;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((value) => {
      document.documentElement.setAttribute('data-mantine-color-scheme', value);
    }, scheme);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
}

// The fixture's matrix, with four hypotheses: the width that did not fit a side panel.
const WIDE_MATRIX = `    hypotheses:
      - A criminal crew renting the kit
      - A state actor
      - An insider at the payroll provider
      - A red-team exercise nobody announced
    evidence:
      - text: The kit is sold openly on a forum
        marks: [C, I, N, I]
      - text: The lure asks for a bank account change
        marks: [C, N, I, I]
    best: 0`;

let scenarioId: string;
let scenarioName: string;

test.beforeAll(async () => {
  const id = `e2e-widths-${randomBytes(4).toString('hex')}`;
  const file = ANALYST_STEPS_FIXTURE(id).replace(
    / {4}hypotheses:\n {6}- A criminal crew renting the kit\n {6}- A state actor\n[\s\S]*? {4}best: 0/,
    WIDE_MATRIX,
  );
  expect(file).toContain('A red-team exercise nobody announced');
  const admin = await adminApi();
  scenarioId = await publishScenario(admin, file, `${id}.yaml`);
  await admin.dispose();
  scenarioName = `Relay kit case (${id})`;
});

/** Every control of the decision panel that a person could use, and whether each is fully in view, unclipped. */
async function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const heading = [...document.querySelectorAll('h2')].find((node) => node.textContent === 'Your decision');
    const panel = heading?.closest('.mantine-Paper-root');
    if (!panel) return ['no decision panel'];
    const controls = [...panel.querySelectorAll('input, button, textarea, select, [role="radio"], [role="checkbox"]')];
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not drawn (a hidden native input of a styled control)
      const name =
        control.getAttribute('aria-label') ??
        (control.closest('label')?.textContent || control.textContent || control.getAttribute('name') || '?').trim();
      if (box.left < -0.5 || box.right > width + 0.5)
        problems.push(`${name}: outside the page (${box.left}-${box.right})`);
      for (let parent = control.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        if (box.left < clip.left - 1 || box.right > clip.right + 1)
          problems.push(`${name}: cut off by a ${parent.tagName.toLowerCase()} (${box.right} > ${clip.right})`);
      }
    }
    return problems;
  });
}

/** At 375 x 812, scrolled to the top: the question (the step's heading) and the decision's first control. */
async function firstScreen(page: Page, stepTitle: string) {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const heading = page.getByRole('heading', { level: 2, name: stepTitle });
  const title = await heading.boundingBox();
  expect(title, stepTitle).not.toBeNull();
  expect(title!.y + title!.height, `${stepTitle}: the question`).toBeLessThanOrEqual(812);
  const first = await page.evaluate(() => {
    const heading = [...document.querySelectorAll('h2')].find((node) => node.textContent === 'Your decision');
    const panel = heading?.closest('.mantine-Paper-root');
    const control = [...(panel?.querySelectorAll('input, button, textarea, [role="radio"]') ?? [])].find((node) => {
      const box = node.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    });
    const box = control?.getBoundingClientRect();
    return box
      ? { bottom: box.bottom, text: (control?.closest('label')?.textContent ?? control?.textContent ?? '').trim() }
      : null;
  });
  expect(first, `${stepTitle}: a first control`).not.toBeNull();
  expect(first!.bottom, `${stepTitle}: the first option (${first!.text})`).toBeLessThanOrEqual(812);
}

async function atBothWidths(page: Page, stepTitle: string, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expect(page.getByRole('heading', { level: 2, name: stepTitle })).toBeVisible();
    // Polled: the layout settles a frame or two after the window changes size.
    await expect.poll(() => clippedControls(page), { message: `${stepTitle} at ${width} px` }).toEqual([]);
    await shot(page, `player-${name}-${width}`);
  }
  await firstScreen(page, stepTitle);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const submit = (page: Page) => page.getByRole('button', { name: 'Submit answer' }).click();
async function next(page: Page) {
  await page.getByRole('button', { name: 'Next' }).click();
}

test('every control of every step kind is in view, unclipped, at 1280 and 375 px; a phone sees the question first', async ({
  page,
}) => {
  test.setTimeout(480_000);
  const trainee = await seedUser();
  await signInPage(page, trainee);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/simulation/${scenarioId}`);
  await expect(page.getByRole('heading', { level: 1, name: scenarioName })).toBeVisible({ timeout: 30_000 });

  // At 1280 End Simulation is a button; on a phone it waits in the run's menu and the title keeps to one line.
  await expect(page.getByRole('button', { name: 'End Simulation' })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByRole('button', { name: 'End Simulation' })).toBeHidden();
  const title = await page.getByRole('heading', { level: 1, name: scenarioName }).boundingBox();
  expect(title!.height).toBeLessThan(40);
  await page.getByRole('button', { name: 'Run menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'End Simulation' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  // choice: the technique (T1566.001, "Phishing: Spearphishing Attachment") is not shown before the answer.
  await expect(page.getByText('T1566.001')).toHaveCount(0);
  await atBothWidths(page, 'A clerk reports a voicemail email', 'choice');
  await page.getByRole('button', { name: 'Find every recipient and purge the message everywhere' }).click();
  await expect(page.getByRole('group', { name: 'Feedback' })).toBeVisible();
  await expect(page.getByText('MITRE ATT&CK: T1566.001 Phishing: Spearphishing Attachment')).toBeVisible();
  await next(page);

  await atBothWidths(page, 'Contain the stolen session', 'multi');
  await page.getByRole('checkbox', { name: "Revoke Dana's sessions and refresh tokens" }).check();
  await submit(page);
  await next(page);

  await atBothWidths(page, 'Order the work', 'rank');
  await submit(page);
  await next(page);

  await atBothWidths(page, 'Will they come back?', 'estimate');
  await page.getByRole('radio', { name: /^Likely/ }).check();
  await page.getByRole('radio', { name: 'Moderate' }).check();
  await submit(page);
  await next(page);

  await atBothWidths(page, 'Grade the forum post', 'grade-source');
  await page.getByRole('radio', { name: /^C\s*:/ }).check();
  await page.getByRole('radio', { name: /^3\s*:/ }).check();
  await submit(page);
  await next(page);

  await atBothWidths(page, 'Pivot on the infrastructure', 'extract');
  await page.getByRole('textbox', { name: /Relay domain/ }).fill('login.voice-msgcenter.example');
  await page.getByRole('textbox', { name: /Address it resolved to/ }).fill('203.0.113.77');
  await submit(page);
  await next(page);

  // ach, four hypotheses: every toggle of H3 and H4 is in view at 1280 (the matrix takes the page's width).
  await atBothWidths(page, 'Who is behind it?', 'ach');
  await expect(page.getByRole('group', { name: 'Evidence 2 against H4' })).toBeInViewport();
  for (const row of [1, 2])
    for (const column of [1, 2, 3, 4])
      await page
        .getByRole('group', { name: `Evidence ${row} against H${column}` })
        .getByRole('radio', { name: 'Consistent', exact: true })
        .check();
  await page.getByRole('radio', { name: /^H\d: A criminal crew renting the kit$/ }).check();
  await submit(page);
  await expect(page.getByRole('group', { name: 'Feedback' })).toBeVisible();
  await expectAccessible(page);
  await next(page);

  // write: the box has the page's width, and the checks run as the trainee types without naming the term.
  await atBothWidths(page, 'Brief the CFO', 'write');
  // As wide as the score bar above it, which spans the page.
  const box = await page.getByRole('textbox', { name: 'Your answer' }).boundingBox();
  const page_ = await page
    .getByRole('progressbar', { name: /^Score/ })
    .locator('..')
    .boundingBox();
  expect(box!.width).toBeGreaterThan(page_!.width * 0.85);
  const live = page.getByTestId('live-checks');
  await expect(page.getByText('T1557')).toHaveCount(0);
  await expect(live).toContainText('Names an ATT&CK technique ID: not yet');
  await expect(live).toContainText(
    'Starts with a TLP 2.0 marking (TLP:CLEAR, TLP:GREEN, TLP:AMBER, TLP:AMBER+STRICT or TLP:RED): not yet',
  );
  await page
    .getByRole('textbox', { name: 'Your answer' })
    .fill('TLP:AMBER. A crew probably stole the session (T1557).');
  await expect(live).toContainText('Names an ATT&CK technique ID: met so far');
  await expect(live).toContainText(
    'Starts with a TLP 2.0 marking (TLP:CLEAR, TLP:GREEN, TLP:AMBER, TLP:AMBER+STRICT or TLP:RED): met so far',
  );
  await expect(live).toContainText('the seven ICD 203 terms');
  await expect(live).toContainText('not met · Replace “probably”');
  await expectAccessible(page);
});

test('admin tables keep their actions within reach at 1280 and 375 px; the dashboard counts what waits for grading', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const pending = await seedUser({ role: 'pending', firstName: 'Pat', lastName: 'Waiting' });
  await signInAsAdmin(page);

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.goto('/admin/pending-users');
    const row = page.getByRole('row').filter({ hasText: pending.email });
    await expect(row).toBeVisible({ timeout: 30_000 });
    // Other specs may have left people waiting above this one: bring the row up, as a person would scroll to it;
    // what is checked is that its buttons are not cut off at the side.
    await row.scrollIntoViewIfNeeded();
    for (const name of ['Approve as Student', 'Approve as Admin', 'Reject'])
      await expect(row.getByRole('button', { name }), `${name} at ${width} px`).toBeInViewport({ ratio: 1 });
    await expectAccessible(page);
    await shot(page, `admin-pending-${width}`);

    await page.goto('/admin/training-progress');
    await expect(page.getByRole('columnheader', { name: 'Report' })).toBeAttached({ timeout: 30_000 });
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0, { timeout: 30_000 });
    const header = await page.getByRole('columnheader', { name: 'Report' }).boundingBox();
    if (width === 1280) expect(header!.x + header!.width).toBeLessThanOrEqual(1280);
    else {
      // Too wide for a phone: it says so, scrolls by keyboard, and its last column stays in view.
      await expect(page.getByText('Scroll the table sideways for more columns')).toBeVisible();
      await expect(page.getByRole('region', { name: /Training progress/i })).toBeVisible();
      expect(header!.x + header!.width).toBeLessThanOrEqual(375);
    }
    await expectAccessible(page);
    await shot(page, `admin-training-progress-${width}`);
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin');
  const card = page.getByRole('link', { name: /To grade/ });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toHaveAttribute('href', '/admin/reviews');
  await expectAccessible(page);
  await shot(page, 'admin-dashboard-1280');
});

test('the end screen, the report, the skill map and the editor have no axe violation of any impact', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const trainee = await seedUser();
  await signInPage(page, trainee);
  await page.goto(`/simulation/${scenarioId}`);
  await expect(page.getByRole('heading', { level: 1, name: scenarioName })).toBeVisible({ timeout: 30_000 });
  const runId = new URL(page.url()).searchParams.get('simId')!;
  // One step answered, so every part of the end screen, the report and the skill map has something to show.
  await page.getByRole('button', { name: 'Find every recipient and purge the message everywhere' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Contain the stolen session' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'End Simulation' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'End Simulation' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Analyst skills' })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);

  await page.goto(`/runs/${runId}/report`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);

  await page.goto('/skills');
  await expect(page.getByRole('heading', { level: 2, name: 'Analyst skills' })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);

  await page.context().clearCookies();
  await signInAsAdmin(page);
  await page.goto(`/admin/scenarios/${scenarioId}/edit`);
  await expect(page.getByRole('heading', { level: 1, name: /^Edit: / })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);
});
