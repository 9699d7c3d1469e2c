import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { publishScenario } from '../fixtures/scenario-files';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInAsAdmin, signInPage, type SeededUser } from '../support/api';
import { ANALYST_STEPS_FIXTURE } from './analyst-steps-fixture';

let scenarioId: string;
let scenarioName: string;

test.beforeAll(async () => {
  const id = `e2e-kinds-${randomBytes(4).toString('hex')}`;
  const admin = await adminApi();
  scenarioId = await publishScenario(admin, ANALYST_STEPS_FIXTURE(id), `${id}.yaml`);
  await admin.dispose();
  scenarioName = `Relay kit case (${id})`;
});

async function start(page: Page, user: SeededUser): Promise<string> {
  await signInPage(page, user);
  await page.goto(`/simulation/${scenarioId}`);
  await expect(page.getByRole('heading', { level: 1, name: scenarioName })).toBeVisible();
  await expect(page).toHaveURL(/\?simId=/);
  return new URL(page.url()).searchParams.get('simId')!;
}

const stepHeading = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title });
const feedback = (page: Page) => page.getByRole('group', { name: 'Feedback' });
const submit = (page: Page) => page.getByRole('button', { name: 'Submit answer' }).click();
const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();
const expectCredit = (page: Page, text: string) => expect(feedback(page)).toContainText(text);

/** Puts the rank items in the wanted order with the Move up buttons, as a keyboard user would. */
async function rankAs(page: Page, wanted: string[]) {
  const list = page.getByRole('list', { name: 'Your order' });
  for (const [target, text] of wanted.entries()) {
    const shown = (await list.getByRole('listitem').allTextContents()).map((item) =>
      item.replace(/^\d+Position \d+: /, ''),
    );
    for (let at = shown.indexOf(text); at > target; at -= 1) {
      await page.getByRole('button', { name: `Move up: ${text}` }).click();
      await expect(
        page.getByRole('status').filter({ hasText: `${text} moved to position ${at} of ${wanted.length}.` }),
      ).toBeAttached();
    }
  }
}

/** The same by dragging each item onto the place it should take. */
async function rankByDragging(page: Page, wanted: string[]) {
  const items = page.getByRole('list', { name: 'Your order' }).getByRole('listitem');
  for (const [target, text] of wanted.entries()) {
    const shown = (await items.allTextContents()).map((item) => item.replace(/^\d+Position \d+: /, ''));
    if (shown.indexOf(text) !== target) await items.nth(shown.indexOf(text)).dragTo(items.nth(target));
    await expect(items.nth(target)).toContainText(text);
  }
}

const matrixCell = (page: Page, row: number, column: number) =>
  page.getByRole('group', { name: `Evidence ${row} against H${column}` });

/** The column (from 1) the run shows a hypothesis in. */
async function hypothesisColumn(page: Page, text: string): Promise<number> {
  const shown = await page.getByRole('list', { name: 'Hypotheses' }).getByRole('listitem').allTextContents();
  const index = shown.findIndex((item) => item.includes(text));
  expect(index, `hypothesis "${text}" among ${shown.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return index + 1;
}

interface Play {
  choice: string;
  multi: string[];
  rank: string[];
  term: string;
  grade: [string, string];
  values: [string, string];
  marks: [string, string, string, string];
  best: string;
  credits: string[];
}

const RIGHT: Play = {
  choice: 'Find every recipient and purge the message everywhere',
  multi: ["Revoke Dana's sessions and refresh tokens", 'Block the relay domain at the proxy'],
  rank: ['Revoke the stolen session', 'Block the relay infrastructure', 'Write the after-action report'],
  term: 'Likely',
  grade: ['C', '3'],
  values: ['login.voice-msgcenter[.]example', '203.0.113[.]77'],
  marks: ['Consistent', 'Inconsistent', 'Consistent', 'Not applicable'],
  best: 'A criminal crew renting the kit',
  credits: [
    'Credit earned: 0.75 of 1',
    'Credit earned: 1 of 1',
    'Credit earned: 1 of 1',
    'Credit earned: 1 of 1',
    'Credit earned: 1 of 1',
    'Credit earned: 1 of 1',
    'Credit earned: 1 of 1',
  ],
};

const PARTLY: Play = {
  choice: "Reset Dana's password and stop there",
  multi: ["Revoke Dana's sessions and refresh tokens"],
  rank: ['Block the relay infrastructure', 'Revoke the stolen session', 'Write the after-action report'],
  term: 'Roughly even chance',
  grade: ['B', '3'],
  values: ['LOGIN.voice-msgcenter.example.', '198.51.100.1'],
  marks: ['Consistent', 'Inconsistent', 'Consistent', 'Not applicable'],
  best: 'A state actor',
  credits: [
    'Credit earned: 0.5 of 1',
    'Credit earned: 0.5 of 1',
    'Credit earned: 0.667 of 1',
    'Credit earned: 0.5 of 1',
    'Credit earned: 0.75 of 1',
    'Credit earned: 0.5 of 1',
    'Credit earned: 0.5 of 1',
  ],
};

const WRONG: Play = {
  choice: 'Block the sender address and wait',
  multi: ['Send Dana a reminder about phishing', 'Turn off MFA for Dana'],
  rank: ['Write the after-action report', 'Block the relay infrastructure', 'Revoke the stolen session'],
  term: 'Almost no chance',
  grade: ['F', '6'],
  values: ['voice-msgcenter.example', ''],
  marks: ['Inconsistent', 'Consistent', 'Not applicable', 'Consistent'],
  best: 'A state actor',
  credits: [
    'Credit earned: 0 of 1',
    'Credit earned: 0 of 1',
    'Credit earned: 0 of 1',
    'Credit earned: 0 of 1',
    'Credit earned: 0 of 1',
    'Credit earned: 0 of 1',
    'Credit earned: 0 of 1',
  ],
};

/** Plays every kind but write with the given answers, checking the credit each one earns and its revealed key. */
async function playKinds(
  page: Page,
  play: Play,
  options: { hint?: boolean; checkAccessible?: boolean; drag?: boolean } = {},
) {
  await expect(stepHeading(page, 'A clerk reports a voicemail email')).toBeVisible();
  await expect(page.getByText('TLP:GREEN')).toBeVisible();
  if (options.hint) {
    await expect(page.getByText("Opening the hint costs 25 % of this step's credit.")).toBeVisible();
    await page.getByRole('button', { name: 'Show hint' }).click();
    await expect(page.getByRole('note', { name: 'Hint' })).toContainText('Think about everyone who got the message.');
  }
  if (options.checkAccessible) await expectAccessible(page);
  await page.getByRole('button', { name: play.choice }).click();
  await expectCredit(page, play.credits[0]!);
  await expect(page.getByRole('list', { name: 'Options' })).toContainText('Correct answer');
  await next(page);

  await expect(stepHeading(page, 'Contain the stolen session')).toBeVisible();
  for (const option of play.multi) await page.getByRole('checkbox', { name: option }).check();
  await submit(page);
  await expectCredit(page, play.credits[1]!);
  await expect(
    page
      .getByRole('list', { name: 'Options' })
      .getByRole('listitem')
      .filter({ hasText: 'Block the relay domain at the proxy' }),
  ).toContainText('Applies');
  await next(page);

  await expect(stepHeading(page, 'Order the work')).toBeVisible();
  await (options.drag ? rankByDragging(page, play.rank) : rankAs(page, play.rank));
  if (options.checkAccessible) await expectAccessible(page);
  await submit(page);
  await expectCredit(page, play.credits[2]!);
  await expect(page.getByRole('list', { name: 'The right order' }).getByRole('listitem').first()).toContainText(
    '1. Revoke the stolen session',
  );
  await next(page);

  await expect(stepHeading(page, 'Will they come back?')).toBeVisible();
  await expect(page.getByRole('radio', { name: /Very likely\s*80-95 %/ })).toBeVisible();
  await page.getByRole('radio', { name: new RegExp(`^${play.term}`) }).check();
  await page.getByRole('radio', { name: 'Moderate' }).check();
  await submit(page);
  await expectCredit(page, play.credits[3]!);
  await expect(page.getByRole('list', { name: 'Likelihood terms' })).toContainText('Defensible');
  await expect(page.getByText('What happened: the statement turned out true.')).toBeVisible();
  await next(page);

  await expect(stepHeading(page, 'Grade the forum post')).toBeVisible();
  await expect(page.getByRole('article', { name: '[SELL] M365 relay kit' })).toContainText('To grade');
  await expect(page.getByRole('article', { name: 'Vendor note on ledgerfox' }).getByText('B2')).toBeVisible();
  await page.getByRole('radio', { name: new RegExp(`^${play.grade[0]}\\s*:`) }).check();
  await page.getByRole('radio', { name: new RegExp(`^${play.grade[1]}\\s*:`) }).check();
  if (options.checkAccessible) await expectAccessible(page);
  await submit(page);
  await expectCredit(page, play.credits[4]!);
  await expect(page.getByText('the key C3', { exact: false })).toBeVisible();
  await next(page);

  await expect(stepHeading(page, 'Pivot on the infrastructure')).toBeVisible();
  await expect(page.getByRole('table').filter({ hasText: 'Passive DNS records' })).toContainText('203.0.113.77');
  await expect(page.getByRole('article', { name: 'WHOIS voice-msgcenter.example' })).toContainText(
    'Example Registrar LLC',
  );
  const stix = page.getByRole('article', { name: 'Partner STIX bundle' });
  await expect(stix).toContainText('Relay host indicates Ledger Fox crew');
  await stix.getByRole('button', { name: 'Show raw JSON' }).click();
  await expect(stix.locator('pre')).toContainText('"type": "bundle"');
  await page.getByRole('textbox', { name: /Relay domain/ }).fill(play.values[0]);
  await page.getByRole('textbox', { name: /Address it resolved to/ }).fill(play.values[1]);
  if (options.checkAccessible) await expectAccessible(page);
  await submit(page);
  await expectCredit(page, play.credits[5]!);
  await expect(page.getByRole('list', { name: 'Extracted values' })).toContainText('login.voice-msgcenter.example');
  await next(page);

  await expect(stepHeading(page, 'Who is behind it?')).toBeVisible();
  // The run shows the hypotheses in an order of its own: find each one's column by its text.
  const criminal = await hypothesisColumn(page, 'A criminal crew renting the kit');
  const state = await hypothesisColumn(page, 'A state actor');
  const cells: [number, number][] = [
    [1, criminal],
    [1, state],
    [2, criminal],
    [2, state],
  ];
  for (const [index, [row, column]] of cells.entries()) {
    await matrixCell(page, row, column).getByRole('radio', { name: play.marks[index]!, exact: true }).check();
  }
  const best = await hypothesisColumn(page, play.best);
  await page.getByRole('radio', { name: `H${best}: ${play.best}` }).check();
  if (options.checkAccessible) await expectAccessible(page);
  await submit(page);
  await expectCredit(page, play.credits[6]!);
  await next(page);
  await expect(stepHeading(page, 'Brief the CFO')).toBeVisible();
}

test('every kind played right, with a hint opened and charged, a written answer reviewed and the score updating', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const trainee = await seedUser();
  const runId = await start(page, trainee);
  await playKinds(page, RIGHT, { hint: true, checkAccessible: true });

  // write: a live word count, then the automatic checks at once and "Awaiting review".
  const editor = page.getByRole('textbox', { name: 'Your answer' });
  await editor.fill('TLP:AMBER. A criminal crew stole the session with a relay kit (T1557).');
  await expect(page.getByText('12 / 60 words')).toBeVisible();
  await editor.fill(
    'TLP:AMBER. A criminal crew stole the session with a relay kit (T1557). They will probably return; it is likely.',
  );
  await expectAccessible(page);
  await submit(page);
  await expect(feedback(page)).toContainText('Awaiting review');
  const checks = page.getByRole('list', { name: 'Automatic checks' });
  await expect(checks).toContainText('Starts with a TLP 2.0 marking: passed');
  await expect(checks).toContainText('Estimative language (the seven ICD 203 terms only): failed');
  await expect(checks).toContainText('“probably”');
  await expect(page.getByRole('heading', { name: 'Model answer' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Simulation Complete!' })).toBeVisible();
  const stat = (label: string) => page.getByText(label, { exact: true }).locator('..');
  await expect(stat('Result')).toContainText('Awaiting review');
  const timeline = page.getByRole('list', { name: 'Decision Timeline' });
  await expect(timeline.getByRole('listitem')).toHaveCount(8);
  await expect(timeline.getByRole('listitem').nth(3)).toContainText('Estimate');
  await expect(timeline.getByRole('listitem').nth(3)).toContainText('Key: Likely or Very likely');
  await expect(timeline.getByRole('listitem').nth(0)).toContainText('Credit 0.75 (hint opened)');
  await expect(timeline.getByRole('listitem').nth(7)).toContainText('Awaiting review');
  await expectAccessible(page);
  const scoreBefore = (await stat('Score').textContent()) ?? '';
  await page.goto('/dashboard');
  await expect(page.locator(`tr[data-run-id="${runId}"]`)).toContainText('Awaiting review');
  await expectAccessible(page);

  // The instructor grades it from the review queue.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signInAsAdmin(adminPage);
  await adminPage.goto('/admin/reviews');
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Review Queue' })).toBeVisible();
  await adminPage.getByRole('combobox', { name: 'Scenario' }).click();
  await adminPage.getByRole('option', { name: scenarioName }).click();
  const row = adminPage.getByRole('row').filter({ hasText: trainee.email });
  await expect(row).toHaveCount(1);
  await expectAccessible(adminPage);
  await row.getByRole('link', { name: /^Grade:/ }).click();
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Brief the CFO' })).toBeVisible();
  await expect(adminPage.getByTestId('review-text')).toContainText('They will probably return');
  await expect(adminPage.getByText('Write a BLUF for the CFO, at most 60 words, marked for sharing.')).toBeVisible();
  await adminPage.getByRole('textbox', { name: /Bottom line first/ }).fill('2');
  await adminPage.getByRole('textbox', { name: /States the likelihood/ }).fill('1');
  await adminPage.getByRole('textbox', { name: 'Comment for the trainee' }).fill('Drop "probably": likely says it.');
  await expectAccessible(adminPage);
  await adminPage.getByRole('button', { name: 'Save grade' }).click();
  await expect(adminPage.getByRole('status').filter({ hasText: 'Graded' })).toBeVisible();
  await adminPage.goto('/admin/reviews?status=graded');
  await expect(adminPage.getByRole('row').filter({ hasText: trainee.email })).toHaveCount(1);

  // Training Progress shows the run's analyst skills and opens the trainee's skills and calibration.
  await adminPage.goto('/admin/training-progress');
  await adminPage.getByRole('textbox', { name: 'Search by username' }).fill(trainee.email);
  const progressRow = adminPage.locator('tr', { has: adminPage.locator(`[data-run-id="${runId}"]`) });
  await expect(progressRow).toContainText('Estimation 100%');
  await progressRow.getByRole('link', { name: `Skills and calibration: ${trainee.email}` }).click();
  await expect(adminPage.getByRole('heading', { level: 1, name: 'ATT&CK Skill Map' })).toBeVisible();
  await expect(adminPage.getByTestId('brier-score')).toContainText('Brier score 0.106');
  await expect(
    adminPage.getByText(`${trainee.firstName} ${trainee.lastName} (${trainee.email}):`, { exact: false }),
  ).toBeVisible();
  await adminContext.close();

  // The trainee's bell tells them; the report shows the graded credit and a result.
  await page.reload();
  const bell = page.getByRole('button', { name: /^Notifications, [1-9]\d* unread$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(page.getByRole('dialog')).toContainText(/graded|review/i);
  await page.keyboard.press('Escape');
  await page.goto(`/simulation/${scenarioId}?simId=${runId}`);
  await expect(stat('Result')).toContainText(/Pass|Fail/);
  expect((await stat('Score').textContent()) ?? '').not.toBe(scoreBefore);
  await expect(page.getByRole('list', { name: 'Decision Timeline' }).getByRole('listitem').nth(7)).toContainText(
    /Credit \d/,
  );

  await page.goto(`/runs/${runId}/report`);
  const bluf = page.getByRole('listitem').filter({ hasText: 'Brief the CFO' });
  await expect(bluf).toContainText('Write');
  await expect(bluf).not.toContainText('Awaiting review');
  await expect(page.getByRole('heading', { name: 'Analyst skills' })).toBeVisible();
  await expectAccessible(page);

  // The skill map shows the analyst skills and the calibration over the one estimate.
  await page.goto('/skills');
  await expect(page.getByRole('table').filter({ hasText: 'Source evaluation' })).toBeVisible();
  await expect(page.getByTestId('brier-score')).toContainText('Brier score 0.106');
  await expect(page.getByRole('row').filter({ hasText: 'Likely' }).first()).toContainText('68%');
  await expectAccessible(page);
});

test('every kind played partly right earns its partial credits (the ranking done by dragging)', async ({ page }) => {
  test.setTimeout(90_000);
  await start(page, await seedUser());
  await playKinds(page, PARTLY, { drag: true });
});

test('every kind played wrong earns nothing and still shows the key', async ({ page }) => {
  test.setTimeout(90_000);
  await start(page, await seedUser());
  await playKinds(page, WRONG);
  await page.getByRole('textbox', { name: 'Your answer' }).fill('It might be bad.');
  await submit(page);
  const checks = page.getByRole('list', { name: 'Automatic checks' });
  await expect(checks).toContainText('Starts with a TLP 2.0 marking: failed');
  await expect(checks).toContainText('Mentions what it must: failed');
});
