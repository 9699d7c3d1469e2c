import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { publishScenario } from '../fixtures/scenario-files';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInPage, type SeededUser } from '../support/api';

// One journey, read as a trainee reads it on every screen (docs/scoring.md): a right answer after the hint, a
// wrong answer then a right one after Retry, a partly right answer and one estimate. The end screen, the
// debrief, the after-action report and the skill map must give each answer the same verdict.

const VERDICTS_FIXTURE = (id: string) => `
id: ${id}
name: "Verdict drill (${id})"
type: Phishing
difficulty: 2
description: A hint, a Retry, a second-best answer and an estimate.
hint_cost: 0.1
steps:
  - id: lure
    title: Read the lure
    description: What is the reported message?
    hint: Look at the sender's domain.
    mitre_attack: T1566.001
    options:
      - text: A phishing email with a macro
        next_step: relay
        feedback: The sender's domain was registered yesterday.
      - text: A supplier's newsletter
        next_step: relay
    correct_option: 0
  - id: relay
    title: Find the relay
    description: What does the page do?
    mitre_attack: T1557
    options:
      - text: It only shows a form
        next_step: null
        feedback: Look at where the form posts. Try again.
      - text: It relays the real page
        next_step: warn
    correct_option: 1
  - id: warn
    title: Warn the staff
    description: Who hears first?
    mitre_attack: T1598
    options:
      - Every recipient of the lure
      - text: All staff, next week
        credit: 0.5
      - Nobody at all
    correct_option: 0
  - id: return
    kind: estimate
    title: Will they come back?
    description: The crew reuses its lures.
    statement: The same crew sends another lure within 30 days.
    accept: [likely, very-likely]
    outcome: true
`;

let scenarioId: string;
let scenarioName: string;
let trainee: SeededUser;

test.beforeAll(async () => {
  const id = `e2e-verdicts-${randomBytes(4).toString('hex')}`;
  const admin = await adminApi();
  scenarioId = await publishScenario(admin, VERDICTS_FIXTURE(id), `${id}.yaml`);
  await admin.dispose();
  scenarioName = `Verdict drill (${id})`;
  trainee = await seedUser();
});

const stepHeading = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title });
const option = (page: Page, text: string) => page.getByRole('button', { name: text });
const feedback = (page: Page) => page.getByRole('group', { name: 'Feedback' });

test('one verdict per answer on the end screen, the debrief, the report and the skill map', async ({ page }) => {
  // A long walk over four screens, each scanned for accessibility.
  test.setTimeout(180_000);
  await signInPage(page, trainee);
  await page.goto(`/simulation/${scenarioId}`);
  await expect(stepHeading(page, 'Read the lure')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: scenarioName })).toBeVisible();
  await expect(page).toHaveURL(/\?simId=/);
  const runId = new URL(page.url()).searchParams.get('simId');

  // The hint, then the right answer: right, with the hint's cost shown as such.
  await page.getByRole('button', { name: 'Show hint' }).click();
  await expect(page.getByRole('note', { name: 'Hint' })).toContainText("Look at the sender's domain.");
  await option(page, 'A phishing email with a macro').click();
  await expect(feedback(page)).toContainText('Right, hint used.');
  await expect(feedback(page)).toContainText("Credit earned: 0.9 of 1, after the hint's 10 % charge");
  // The feedback is printed once: the headline, then its explanation, each one time.
  await expect(feedback(page).getByText("The sender's domain was registered yesterday.")).toHaveCount(1);
  await expect(feedback(page).getByText('Correct!', { exact: true })).toHaveCount(1);
  await page.getByRole('button', { name: 'Next' }).click();

  // Wrong, Retry, then right: the later answer is "After Retry" and earns nothing.
  await expect(stepHeading(page, 'Find the relay')).toBeVisible();
  await option(page, 'It only shows a form').click();
  await expect(feedback(page)).toContainText('Wrong.');
  await expect(feedback(page).getByText('Look at where the form posts. Try again.')).toHaveCount(1);
  await page.getByRole('button', { name: 'Retry' }).click();
  await option(page, 'It relays the real page').click();
  await expect(feedback(page)).toContainText('After Retry.');
  await page.getByRole('button', { name: 'Next' }).click();

  // A second-best option: partly right.
  await expect(stepHeading(page, 'Warn the staff')).toBeVisible();
  await option(page, 'All staff, next week').click();
  await expect(feedback(page)).toContainText('Partly right.');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(stepHeading(page, 'Will they come back?')).toBeVisible();
  await page.getByRole('radio', { name: /^Likely/ }).check();
  await page.getByRole('button', { name: 'Submit answer' }).click();
  await expect(feedback(page)).toContainText('Right.');
  await page.getByRole('button', { name: 'Next' }).click();

  // The end screen: right first answers and missed steps, the right answer after Retry counted apart.
  await expect(page.getByRole('heading', { level: 1, name: 'Simulation Complete!' })).toBeVisible();
  const stat = (label: string) => page.getByText(label, { exact: true }).locator('..');
  await expect(stat('Score')).toContainText('2.4 / 4');
  await expect(stat('Right answers')).toContainText('2');
  await expect(stat('Right answers')).toContainText('1 after Retry not counted');
  await expect(stat('Missed steps')).toContainText('2');
  await expect(stat('Missed steps')).toContainText('1 partly right, 1 wrong');

  // The 'MITRE ATT&CK Score': the hinted technique is right and not missed.
  const techniques = page.getByRole('region', { name: 'MITRE ATT&CK Score' }).getByRole('table');
  await expect(techniques.locator('tr[data-technique="T1566.001"]')).toHaveText(/1 of 1\s*0\.9\s*Nothing/);
  await expect(techniques.locator('tr[data-technique="T1557"]')).toHaveText(/0 of 1\s*0\s*Find the relay/);
  await expect(techniques.locator('tr[data-technique="T1598"]')).toHaveText(/0 of 1\s*0\.5\s*Warn the staff/);

  // The debrief: the hinted step is "Right, hint used" with no practice; the missed steps offer it.
  const answers = page.getByRole('list', { name: 'Your answers and the best ones' }).getByRole('listitem');
  await expect(answers).toHaveCount(4);
  await expect(answers.nth(0)).toContainText('Right, hint used · Credit 0.9 (hint opened)');
  await expect(answers.nth(0).getByRole('button', { name: /Practise this step/ })).toHaveCount(0);
  await expect(answers.nth(1)).toContainText('Wrong · Credit 0');
  await expect(answers.nth(1).getByRole('button', { name: 'Practise this step: Find the relay' })).toBeVisible();
  await expect(answers.nth(2)).toContainText('Partly right · Credit 0.5');
  await expect(answers.nth(2).getByRole('button', { name: 'Practise this step: Warn the staff' })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Decision Timeline' }).getByRole('listitem');
  await expect(timeline.nth(2)).toContainText('After Retry · Later answer: no credit');
  await expectAccessible(page);

  // The after-action report says the same.
  await page.getByRole('link', { name: 'View after-action report' }).click();
  await expect(page).toHaveURL(`/runs/${runId}/report`);
  await expect(page.getByTestId('report-verdicts')).toContainText(
    '2 right first answers, 1 partly right, 1 wrong, 1 answer after Retry (recorded, no credit)',
  );
  const decisions = page.getByRole('region', { name: 'Decisions' }).getByRole('listitem');
  await expect(decisions.nth(0)).toContainText('Right, hint used');
  await expect(decisions.nth(1)).toContainText('Wrong');
  await expect(decisions.nth(2)).toContainText('After Retry');
  await expect(decisions.nth(3)).toContainText('Partly right');
  const reportTechniques = page.getByRole('region', { name: 'Techniques met' }).getByRole('row');
  await expect(reportTechniques.filter({ hasText: 'T1566.001' })).toHaveText(/T1566\.001.*\s*1\s*0$/);
  await expect(reportTechniques.filter({ hasText: 'T1557' })).toHaveText(/T1557.*\s*0\s*1$/);
  await expect(page.getByText('No technique was missed')).toHaveCount(0);
  await expectAccessible(page);

  // The skill map: the hinted technique is 1 of 1 right with its 0.9 credit; the Retry's right answer is not counted.
  await page.goto('/skills');
  await expect(page.getByRole('heading', { level: 1, name: 'ATT&CK Skill Map' })).toBeVisible();
  const cell = (tactic: string, id: string) =>
    page.getByRole('region', { name: tactic }).locator(`[data-technique="${id}"]`);
  await expect(cell('Initial Access', 'T1566.001')).toContainText('100%', { timeout: 30_000 });
  await expect(cell('Credential Access', 'T1557')).toContainText('0%');
  await cell('Initial Access', 'T1566.001').focus();
  await expect(page.getByRole('tooltip')).toContainText('1 of 1 first answer right (100 %) · credit 0.9 · Strong');
  // One estimate is too few to judge calibration: the map says how many it has and how many it needs.
  await expect(page.getByTestId('calibration-verdict')).toHaveText(
    'over 1 estimate. Too few to judge: calibration is judged after 10 estimates, 9 more to go.',
  );
  await page.getByRole('heading', { level: 1, name: 'ATT&CK Skill Map' }).click();
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await expectAccessible(page);
});
