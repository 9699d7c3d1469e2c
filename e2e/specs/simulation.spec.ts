import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { publishScenario } from '../fixtures/scenario-files';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInPage, type SeededUser } from '../support/api';
import { SIMULATION_FIXTURE } from './simulation-fixture';

const EMAIL_CORRECT = 'Find every recipient, purge the message everywhere and ask Dana what she entered';

let scenarioId: string;
let scenarioName: string;
// Every test starts runs of its own; two trainees are enough (and keep the admin's sign-ins few).
let trainee: SeededUser;
let otherTrainee: SeededUser;

test.beforeAll(async () => {
  const id = `e2e-sim-${randomBytes(4).toString('hex')}`;
  const admin = await adminApi();
  scenarioId = await publishScenario(admin, SIMULATION_FIXTURE(id), `${id}.yaml`);
  await admin.dispose();
  scenarioName = `Voicemail lure (${id})`;
  trainee = await seedUser();
  otherTrainee = await seedUser();
});

async function startAs(page: Page, user: SeededUser): Promise<string> {
  await signInPage(page, user);
  await page.goto(`/simulation/${scenarioId}`);
  await expect(page.getByRole('heading', { level: 1, name: scenarioName })).toBeVisible();
  await expect(page).toHaveURL(/\?simId=/);
  return new URL(page.url()).searchParams.get('simId')!;
}

const stepHeading = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title });
const option = (page: Page, text: string) => page.getByRole('button', { name: text });
const feedback = (page: Page) => page.getByRole('group', { name: 'Feedback' });
const scoreLine = (page: Page, text: string) => expect(page.getByText(text, { exact: true })).toBeVisible();

test('a trainee plays a scenario to the end, with a hint, a Retry, right and wrong answers', async ({ page }) => {
  // A long walk with several accessibility scans of long pages (the debrief, the branch diagram).
  test.slow();
  const runId = await startAs(page, trainee);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('simulations') ?? '[]'))).toContain(runId);

  // A reload resumes the same run instead of starting another.
  await page.reload();
  await expect(stepHeading(page, 'A clerk reports a "missed voicemail" email')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('simId')).toBe(runId);

  // The email is drawn as an email: its header block, then the body.
  await expect(
    page.getByRole('article', { name: 'Message reported by the clerk' }).getByText('Subject', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText('[Voicemail] 1 new message from +1 (555) 0147 - 0:48 sec')).toBeVisible();
  // The percent divides by the best path's length (4 steps: the sandbox step is off it) until the run completes.
  await scoreLine(page, '0 / 4 (0%)');
  await expect(page.getByTestId('step-counter')).toHaveText('Step 1 · 4 left on the best path');
  await expectAccessible(page);

  // The hint is sent only when asked for, and says what it costs first.
  await expect(page.getByText("Opening the hint costs 25 % of this step's credit.")).toBeVisible();
  await page.getByRole('button', { name: 'Show hint' }).click();
  await expect(page.getByRole('note', { name: 'Hint' })).toContainText(
    'Think about everyone who got the message, not only Dana.',
  );
  await expect(page.getByRole('button', { name: 'Show hint' })).toHaveCount(0);

  // A wrong answer whose next step is null: the options lock, the feedback shows, the button reads Retry.
  await option(page, 'Open the attachment on your own workstation to see what it does').click();
  await expect(feedback(page)).toContainText('Incorrect.');
  await expect(feedback(page)).toContainText('Credit earned: 0 of 1');
  await expect(page.getByRole('list', { name: 'Options' })).toContainText(
    'Never open a suspicious attachment outside a sandbox. Try again.',
  );
  await expect(
    page.getByRole('list', { name: 'Options' }).getByRole('listitem').filter({ hasText: EMAIL_CORRECT }),
  ).toContainText('Correct answer');
  await expect(feedback(page)).toBeFocused();
  await expect(option(page, EMAIL_CORRECT)).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Retry' }).click();

  // Retry stays on the step; the number key 2 chooses the second option, Enter moves on. Only the first answer
  // of a visit earns credit.
  await expect(option(page, EMAIL_CORRECT)).toBeVisible();
  await page.keyboard.press(
    String(
      (await page.getByRole('group', { name: 'Options' }).getByRole('button').allTextContents()).findIndex((text) =>
        text.includes(EMAIL_CORRECT),
      ) + 1,
    ),
  );
  await expect(feedback(page)).toContainText('Correct!');
  await expect(feedback(page)).toContainText('Only the first answer on a visit earns credit: this one earns nothing.');
  await scoreLine(page, '0 / 4 (0%)');
  await expect(page.getByRole('button', { name: 'Next' })).toBeVisible();
  await page.keyboard.press('Enter');

  // The correct option named `sign-in-logs`, so the sandbox step is skipped.
  await expect(stepHeading(page, "Dana's sign-in log")).toBeVisible();
  // The counter follows the trainee's path (the second step played, though the third in the file) and counts
  // what is left on the best path from here.
  await expect(page.getByTestId('step-counter')).toHaveText('Step 2 · 3 left on the best path');
  await option(page, 'Dana signed in from her phone, nothing to see').click();
  await expect(feedback(page)).toContainText('Incorrect.');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(stepHeading(page, 'The relay infrastructure')).toBeVisible();
  await option(page, 'The relay domain, the replay address and the file hash, everywhere').click();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(stepHeading(page, 'Close the case')).toBeVisible();
  await option(page, 'The timeline, the indicators and the lessons learned').click();
  await expect(page.getByText('That was the last step: Next shows your results.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Simulation Complete!' })).toBeVisible();
  const stat = (label: string) => page.getByText(label, { exact: true }).locator('..');
  // Completed: the percent divides by the 4 scored steps played; the Retry's right answer earned nothing.
  await expect(stat('Score')).toContainText('2 / 4');
  await expect(stat('Score')).toContainText('50%');
  await expect(stat('Result')).toContainText('Fail');
  // Right first answers only: the right answer after the Retry is counted apart, never as a right answer.
  await expect(stat('Right answers')).toContainText('2');
  await expect(stat('Right answers')).toContainText('1 after Retry not counted');
  await expect(stat('Missed steps')).toContainText('2');
  await expect(stat('Duration')).toContainText(/\d+ seconds?/);

  // The debrief: every technique met, with its right answers (0 included) and the steps missed.
  const techniques = page.getByRole('region', { name: 'MITRE ATT&CK Score' }).getByRole('table');
  await expect(techniques.getByRole('row')).toHaveCount(4);
  await expect(techniques.locator('tr[data-technique="T1566.001"]')).toHaveText(
    /T1566\.001 Phishing: Spearphishing Attachment\s*0 of 1\s*0\s*A clerk reports a "missed voicemail" email/,
  );
  await expect(techniques.locator('tr[data-technique="T1550.004"]')).toHaveText(/0 of 1\s*0\s*Dana's sign-in log/);
  await expect(techniques.locator('tr[data-technique="T1583.001"]')).toHaveText(/1 of 1\s*1\s*Nothing/);
  await expect(page.getByText(/The MITRE Corporation/)).toBeVisible();

  // Each step's first answer beside the best one.
  const answers = page.getByRole('list', { name: 'Your answers and the best ones' }).getByRole('listitem');
  await expect(answers).toHaveCount(4);
  await expect(answers.first()).toContainText('Your answer');
  await expect(answers.first()).toContainText('Open the attachment on your own workstation to see what it does');
  await expect(answers.first()).toContainText(`Best answer${EMAIL_CORRECT}`);
  await expect(answers.nth(1)).toContainText(
    "Best answerThe attacker replayed Dana's stolen session cookie from a VPS",
  );
  await expect(answers.nth(2).getByRole('button', { name: /Practise this step/ })).toHaveCount(0);

  // The path taken beside the best path (here the same four steps).
  const taken = page.getByRole('list', { name: /The path you took \(4 steps\)/ }).getByRole('listitem');
  await expect(taken).toHaveText([
    'A clerk reports a "missed voicemail" email',
    "Dana's sign-in log",
    'The relay infrastructure',
    'Close the case',
  ]);
  const best = page.getByRole('list', { name: /The best path \(4 steps\)/ }).getByRole('listitem');
  await expect(best).toHaveCount(4);
  await expect(best.nth(1)).toHaveText("Dana's sign-in logtaken");
  await expectAccessible(page);

  // Practise a missed step in place: answered right, recorded as practice, the score unchanged.
  await answers.nth(1).getByRole('button', { name: "Practise this step: Dana's sign-in log" }).click();
  const practice = page.getByRole('region', { name: "Practice: Dana's sign-in log" });
  await expect(practice.getByRole('heading', { level: 3, name: "Dana's sign-in log" })).toBeFocused();
  await expect(practice).toContainText("Practice is recorded apart from the run: it does not change this run's score.");
  // The question first: the step's best answer waits for the practice answer.
  await expect(answers.nth(1).locator('dl').nth(1)).toHaveText(
    'Best answerHidden while you practise: answer the practice first.',
  );
  await expectAccessible(page);
  await practice.getByRole('button', { name: "The attacker replayed Dana's stolen session cookie from a VPS" }).click();
  const practiceResult = practice.getByRole('group', { name: 'Practice result' });
  await expect(practiceResult).toContainText('Correct!');
  await expect(practiceResult).toContainText(
    "Practice credit: 1 of 1. Not counted: the run's score stays 2 / 4 (50%).",
  );
  await expect(answers.nth(1)).toContainText('Practice 1: Right (1 of 1, not counted)');
  await expect(stat('Score')).toContainText('2 / 4');
  await expectAccessible(page);
  await practice.getByRole('button', { name: 'Close practice' }).click();
  await expect(practice).toHaveCount(0);
  await page.reload();
  await expect(answers.nth(1)).toContainText('Practice 1: Right (1 of 1, not counted)');
  await expect(stat('Score')).toContainText('50%');

  const timeline = page.getByRole('list', { name: 'Decision Timeline' });
  await expect(timeline.getByRole('listitem')).toHaveCount(5);
  await expect(timeline.getByRole('listitem').first()).toContainText('Open the attachment on your own workstation');
  await expect(timeline.getByRole('listitem').first()).toContainText('Credit 0 (hint opened)');
  await expect(timeline.getByRole('listitem').nth(1)).toContainText('Later answer: no credit');

  await expect(page.getByRole('link', { name: 'View after-action report' })).toHaveAttribute(
    'href',
    `/runs/${runId}/report`,
  );
  await expect(page.getByRole('link', { name: 'Back to scenarios' })).toHaveAttribute('href', '/scenarios');
  await expectAccessible(page);
});

test('End Simulation asks first, then ends the run at once with its score', async ({ page }) => {
  await startAs(page, trainee);
  await option(page, EMAIL_CORRECT).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, "Dana's sign-in log")).toBeVisible();

  await page.getByRole('button', { name: 'End Simulation' }).click();
  const dialog = page.getByRole('dialog', { name: 'End this simulation?' });
  await dialog.getByRole('button', { name: 'Keep playing' }).click();
  await expect(dialog).toBeHidden();
  await expect(stepHeading(page, "Dana's sign-in log")).toBeVisible();

  await page.getByRole('button', { name: 'End Simulation' }).click();
  await dialog.getByRole('button', { name: 'End Simulation' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Simulation Ended' })).toBeVisible();
  // Ending early divides by the best path's length, so it never inflates the percent.
  await expect(page.getByText('Score', { exact: true }).locator('..')).toContainText('1 / 4');
  await expect(page.getByRole('heading', { name: 'MITRE ATT&CK Score' })).toBeVisible();
  // The best path shows only as far as the run went while the run can still go on.
  await expect(page.getByRole('list', { name: /The path you took/ }).getByRole('listitem')).toHaveText([
    'A clerk reports a "missed voicemail" email',
    "Dana's sign-in logstopped here",
  ]);
  await expect(page.getByText('3 more steps on the best path, shown once this run is finished.')).toBeVisible();

  // An ended run is resumable: Resume goes on at the step where it ended.
  await page.getByRole('button', { name: 'Resume this run' }).click();
  await expect(stepHeading(page, "Dana's sign-in log")).toBeVisible();
  await expect(page.getByTestId('step-counter')).toHaveText('Step 2 · 3 left on the best path');
  await scoreLine(page, '1 / 4 (25%)');
});

test('leaving mid-run loses nothing: the run resumes at the same step, answered state and score', async ({ page }) => {
  // A trainee of its own: a start continues the trainee's unfinished run, and an earlier test ended one early.
  const runId = await startAs(page, await seedUser());
  await option(page, 'Block the sender address and wait for more reports').click();
  await page.getByRole('button', { name: 'Next' }).click();
  // The fall-through went to the following step in order.
  await expect(stepHeading(page, 'The sandbox report')).toBeVisible();
  await expect(page.getByRole('article', { name: '[SELL] M365 relay kit, MFA bypass, weekly updates' })).toContainText(
    'ledgerfox',
  );
  await option(page, 'An adversary-in-the-middle relay that steals the session cookie').click();
  await expect(feedback(page)).toContainText('Correct!');

  await page.goto('/dashboard');
  // The old step parameter is accepted, but the server's state wins.
  await page.goto(`/simulation/${scenarioId}?simId=${runId}&step=0`);
  await expect(stepHeading(page, 'The sandbox report')).toBeVisible();
  await expect(feedback(page)).toContainText('Correct!');
  await scoreLine(page, '1 / 4 (25%)');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(stepHeading(page, "Dana's sign-in log")).toBeVisible();
  await expect(page.getByRole('article', { name: 'Identity provider sign-in log, dana.k' })).toContainText(
    '203.0.113.77',
  );
});

test("a trainee cannot open someone else's run, and an unknown scenario says so with a way back", async ({
  page,
  browser,
}) => {
  const ownerPage = await browser.newPage();
  const runId = await startAs(ownerPage, trainee);
  await ownerPage.close();

  await signInPage(page, otherTrainee);
  await page.goto(`/simulation/${scenarioId}?simId=${runId}`);
  await expect(page.getByRole('alert')).toHaveText('Simulation run not found.');
  await expect(page.getByRole('link', { name: 'Back to scenarios' })).toBeVisible();
  await expectAccessible(page);

  await page.goto('/simulation/no-such-scenario');
  await expect(page.getByRole('alert')).toHaveText('Scenario not found.');
  await page.getByRole('link', { name: 'Back to scenarios' }).click();
  await expect(page).toHaveURL(/\/scenarios$/);
});
