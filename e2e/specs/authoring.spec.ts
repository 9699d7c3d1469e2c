import { randomBytes } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInAsAdmin, signInPage } from '../support/api';

// The scenario editor (issue 18). The first test needs nothing of the server beyond signing in: the editor, its
// checker and its preview run in the browser. The others save, publish, restore and refuse a stale save through
// the versions API. Each builds a scenario through the form, keystroke by keystroke, so each is given time.
test.describe.configure({ timeout: 240_000 });

const problems = (page: Page) => page.getByRole('list', { name: 'Problems' });
const checkerStatus = (page: Page) => page.getByRole('region', { name: 'Checker' }).getByRole('status');

/** The checker has caught up with the typing (its list, above the form, has its new length). */
const settled = (page: Page) => expect(checkerStatus(page)).not.toHaveText('Checking…');

/** Picks an item of a Mantine Select (or MultiSelect) by its label and the item's text. */
async function pick(scope: Page | Locator, page: Page, label: string | RegExp, item: string | RegExp) {
  await settled(page);
  await scope
    .getByRole('textbox', { name: label })
    .or(scope.getByRole('combobox', { name: label }))
    .first()
    .click();
  await page.getByRole('option', { name: item }).click();
}

async function fillStep(page: Page, step: { id: string; title?: string; description: string }) {
  await page.getByLabel('Step id').fill(step.id);
  if (step.title) await page.getByLabel('Title', { exact: true }).fill(step.title);
  await page.getByLabel('Description', { exact: true }).fill(step.description);
}

async function addStep(page: Page, kind: string) {
  await settled(page);
  await page.getByRole('button', { name: 'Add step' }).click();
  await page.getByRole('menuitem', { name: kind }).click();
}

const option = (page: Page, index: number) => page.locator(`[data-field="options[${index}]"]`);

/** Builds "triage" (a decision) → "who" (select all) → "odds" (estimate); the wrong decision skips to "odds". */
async function buildBranchingScenario(page: Page, name: string, { titleOdds = true } = {}) {
  await page.goto('/admin/scenarios/new');
  // The editor's chunk (graph, forms, the checker and the ATT&CK data) is the largest; its first load takes longer.
  await expect(page.getByRole('heading', { level: 1, name: 'New scenario' })).toBeVisible({ timeout: 45_000 });
  await expect(checkerStatus(page)).toContainText('problems to fix before publishing');

  await page.getByRole('tab', { name: /Scenario/ }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Description', { exact: true }).fill('A clinic clerk opened a lure; decide, scope and judge.');
  await page.getByRole('tab', { name: 'Step' }).click();

  await fillStep(page, { id: 'triage', title: 'First move', description: 'A clerk opened the attachment. What now?' });
  await option(page, 0).getByRole('textbox', { name: 'Option 1 text' }).fill('Isolate the host now');
  await option(page, 1)
    .getByRole('textbox', { name: 'Option 2 text' })
    .fill('Wait and watch what the intruder does next for a day');

  await addStep(page, 'Select all that apply');
  await fillStep(page, { id: 'who', title: 'Who must know today?', description: 'Select all that apply.' });
  await option(page, 0).getByRole('textbox', { name: 'Option 1 text' }).fill('Privacy officer');
  await option(page, 1).getByRole('textbox', { name: 'Option 2 text' }).fill('Every patient');
  await expect(option(page, 0).getByRole('checkbox', { name: 'Option 1 applies' })).toBeChecked();

  await addStep(page, 'Estimate');
  await fillStep(page, {
    id: 'odds',
    ...(titleOdds ? { title: 'Will they return?' } : {}),
    description: 'Judge the chance of a second wave.',
  });
  await page.getByRole('textbox', { name: 'Statement' }).fill('The actor phishes the clinic again within 90 days.');
  await pick(page, page, 'Defensible terms (full credit)', /^Likely/);
  await page.keyboard.press('Escape');

  // The wrong decision branches straight to the estimate.
  await pick(page, page, /^Step$/, /^1\. triage/);
  await pick(option(page, 1), page, 'Leads to', /^odds/);
}

test('an author builds a branching scenario of three kinds, fixes the problem the checker shows, and previews it', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await buildBranchingScenario(page, `Clinic lure ${randomBytes(3).toString('hex')}`, { titleOdds: false });

  // The graph: three steps coloured and named by kind, the branch labelled with its option.
  const nodes = page.locator('.react-flow__node-step');
  await expect(nodes).toHaveCount(3);
  await expect(page.getByRole('group', { name: /^Estimate step odds: untitled, 1 problem$/ })).toBeVisible();
  await expect(page.locator('.react-flow').getByText('2. Wait and watch what the int…')).toBeVisible();

  // One problem left; clicking it opens its step and puts the cursor in its field.
  await expect(problems(page).getByRole('button')).toHaveText(['Step 3 (odds) · title must not be empty']);
  await expect(page.getByRole('button', { name: 'Publish' })).toBeDisabled();
  await expectAccessible(page);
  await pick(page, page, /^Step$/, /^2\. who/);
  await problems(page)
    .getByRole('button', { name: /Step 3 \(odds\) · title/ })
    .click();
  const title = page.getByLabel('Title', { exact: true });
  await expect(title).toBeFocused();
  await title.fill('Will they return?');
  await expect(checkerStatus(page)).toHaveText('No problems: ready to publish.');
  await expect(problems(page)).toBeHidden();

  // The preview plays the draft as a trainee would, from any step, recording nothing.
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Preview as a trainee' });
  await expect(preview.getByRole('heading', { level: 2, name: 'Will they return?' })).toBeVisible();
  await pick(preview, page, 'Start at', /^1\. triage/);
  await expect(preview.getByRole('heading', { level: 2, name: 'First move' })).toBeVisible();
  await preview.getByRole('button', { name: 'Isolate the host now' }).click();
  await expect(preview.getByRole('group', { name: 'Feedback' })).toContainText('Correct!');
  await preview.getByRole('button', { name: 'Next' }).click();
  await expect(preview.getByRole('heading', { level: 2, name: 'Who must know today?' })).toBeVisible();
  await preview.getByRole('checkbox', { name: 'Privacy officer' }).check();
  await preview.getByRole('button', { name: 'Submit answer' }).click();
  await expect(preview.getByRole('group', { name: 'Feedback' })).toContainText('Correct!');
  await preview.getByRole('button', { name: 'Next' }).click();
  await preview.getByRole('radio', { name: /^Unlikely/ }).check();
  await preview.getByRole('button', { name: 'Submit answer' }).click();
  await expect(preview.getByRole('group', { name: 'Feedback' })).toContainText('Incorrect.');
  await expectAccessible(page);
  await preview.getByRole('button', { name: 'Finish' }).click();
  await expect(preview.getByText('Credit 2 of 3 scored steps (67 %).', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Close the preview' }).click();
  await expect(preview).toBeHidden();
});

test('a new scenario is saved as a draft, published, and played by a trainee', async ({ page, browser }) => {
  const name = `Clinic lure ${randomBytes(3).toString('hex')}`;
  await signInAsAdmin(page);
  await buildBranchingScenario(page, name);
  await expect(checkerStatus(page)).toHaveText('No problems: ready to publish.');

  await page.getByRole('button', { name: 'Save draft' }).click();
  const id = name.toLowerCase().replace(/ /g, '-');
  await expect(page).toHaveURL(`/admin/scenarios/${id}/edit`);
  await expect(page.getByText('Draft v1 · revision 1')).toBeVisible();
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published as version 1.')).toBeVisible();

  const trainee = await seedUser();
  const context = await browser.newContext();
  const traineePage = await context.newPage();
  await signInPage(traineePage, trainee);
  await traineePage.goto(`/simulation/${id}`);
  await expect(traineePage.getByRole('heading', { level: 2, name: 'First move' })).toBeVisible();
  await traineePage.getByRole('button', { name: 'Isolate the host now' }).click();
  await expect(traineePage.getByRole('group', { name: 'Feedback' })).toContainText('Correct!');
  await context.close();
});

test('history restores an earlier version as the draft; a save over someone else’s is refused and kept', async ({
  page,
}) => {
  const name = `Clinic lure ${randomBytes(3).toString('hex')}`;
  await signInAsAdmin(page);
  await buildBranchingScenario(page, name);
  await page.getByRole('button', { name: 'Save draft' }).click();
  const id = name.toLowerCase().replace(/ /g, '-');
  await expect(page).toHaveURL(`/admin/scenarios/${id}/edit`);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published as version 1.')).toBeVisible();

  // Version 2: the first step retitled.
  await pick(page, page, /^Step$/, /^1\. triage/);
  await page.getByLabel('Title', { exact: true }).fill('First move, again');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published as version 2.')).toBeVisible();

  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'Version history' });
  await expect(history.getByRole('listitem', { name: 'Version 2' })).toContainText('Published (current)');
  await expect(history.getByRole('listitem', { name: 'Version 1' })).toContainText('Superseded');
  await expect(history.getByRole('link', { name: 'Export version 1 as YAML' })).toHaveAttribute(
    'href',
    `/api/sim/${id}/versions/1/export`,
  );
  await expectAccessible(page);
  await history.getByRole('button', { name: 'Restore version 1 as draft' }).click();
  await expect(page.getByText('Version 1 restored as the draft.')).toBeVisible();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('First move');

  // Someone else saves the draft meanwhile; this editor's save is refused, and its version can be downloaded.
  const admin = await adminApi();
  const draft = (await (await admin.get(`/api/sim/${id}/draft`)).json()) as { revision: number; definition: object };
  const other = await admin.put(`/api/sim/${id}/draft`, {
    data: { revision: draft.revision, definition: draft.definition },
  });
  expect(other.ok()).toBe(true);
  await admin.dispose();
  await page.getByLabel('Title', { exact: true }).fill('First move, my way');
  await page.getByRole('button', { name: 'Save draft' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Your changes were not saved' });
  await expect(refusal).toContainText('since you opened it');
  const download = page.waitForEvent('download');
  await refusal.getByRole('button', { name: 'Download my version' }).click();
  expect((await download).suggestedFilename()).toBe(`${id}-my-version.yaml`);
});

test('a run started on version 1 finishes on version 1 after version 2 is published mid-way', async ({ browser }) => {
  const id = `pinned-${randomBytes(3).toString('hex')}`;
  const definition = (closeTitle: string) => ({
    id,
    name: `Pinned lure ${id}`,
    type: 'Phishing',
    difficulty: 2,
    description: 'A lure reaches the front desk; a run keeps the version it started on.',
    steps: [
      {
        id: 'triage',
        title: 'First move',
        description: 'A clerk opened the attachment. What now?',
        mitre_attack: 'T1566.001',
        options: [{ text: 'Isolate the host now' }, { text: 'Wait a day and watch what happens' }],
        correct_option: 0,
      },
      {
        id: 'close',
        title: closeTitle,
        description: 'The host is clean again. What closes the case?',
        options: [{ text: 'Write up the timeline' }, { text: 'Close it without notes' }],
        correct_option: 0,
      },
    ],
  });
  const admin = await adminApi();
  const publish = async (closeTitle: string, revision: number | null) => {
    const saved = await (revision === null
      ? admin.post('/api/sim/drafts', { data: { definition: definition(closeTitle) } })
      : admin.put(`/api/sim/${id}/draft`, { data: { revision: null, definition: definition(closeTitle) } }));
    expect(saved.ok()).toBe(true);
    const draft = (await saved.json()) as { revision: number };
    expect((await admin.post(`/api/sim/${id}/publish`, { data: { revision: draft.revision } })).ok()).toBe(true);
  };
  await publish('Close the case (version 1)', null);

  const trainee = await seedUser();
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInPage(page, trainee);
  await page.goto(`/simulation/${id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'First move' })).toBeVisible();
  await page.getByRole('button', { name: 'Isolate the host now' }).click();
  await expect(page.getByRole('group', { name: 'Feedback' })).toContainText('Correct!');

  // Mid-run, the author publishes version 2 with the last step retitled.
  await publish('Close the case (version 2)', 1);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Close the case (version 1)' })).toBeVisible();
  await page.getByRole('button', { name: 'Write up the timeline' }).click();
  await expect(page.getByRole('group', { name: 'Feedback' })).toContainText('Correct!');
  await page.getByRole('button', { name: /Finish|Next/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Simulation Complete!' })).toBeVisible();

  // A new run plays version 2.
  await page.goto(`/simulation/${id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'First move' })).toBeVisible();
  await page.getByRole('button', { name: 'Isolate the host now' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Close the case (version 2)' })).toBeVisible();
  await context.close();
  await admin.dispose();
});
