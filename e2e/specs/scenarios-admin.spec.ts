import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { BROKEN_SCENARIO_FILE, publishScenario, scenarioFile } from '../fixtures/scenario-files';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInAsAdmin, signInPage } from '../support/api';

async function chooseFile(page: Page, name: string, text: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Scenario file' }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/yaml', buffer: Buffer.from(text) });
}

test('uploading: no file, a broken file with every problem listed, then a good file in the summary and the picker', async ({
  page,
}) => {
  const name = `Uploaded drill ${randomBytes(3).toString('hex')}`;
  const text = scenarioFile({ name, type: 'Hacktivism', difficulty: 2 });
  await signInAsAdmin(page);
  await page.goto('/upload');
  await expect(page.getByRole('heading', { name: 'Upload Scenario', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Please select a file.')).toBeVisible();

  await chooseFile(page, 'broken.yaml', BROKEN_SCENARIO_FILE);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const failure = page.getByRole('alert').filter({ hasText: 'Upload failed. Please try again.' });
  await expect(failure).toBeVisible();
  const problems = failure.getByRole('list', { name: 'Problems in the file' }).getByRole('listitem');
  await expect(problems).toHaveText([
    'steps[0].options[0].next_step: no step with id "nowhere"',
    'steps[0].correct_option: 4 is out of range (2 options)',
    'steps[0].mitre_attack: "T9999" is not an active ATT&CK Enterprise technique',
  ]);
  await expectAccessible(page);

  await chooseFile(page, 'good-drill.yaml', text);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const summary = page.getByRole('status').filter({ hasText: 'Upload Summary' });
  await expect(summary).toBeVisible();
  await expect(failure).toBeHidden();
  await expect(summary.getByRole('row', { name: /Filename/ })).toContainText('good-drill.yaml');
  await expect(summary.getByRole('row', { name: /Size/ })).toContainText(
    `${Buffer.byteLength(text).toLocaleString('en-US')} bytes`,
  );
  await expect(summary.getByRole('row', { name: /Upload time/ }).locator('time')).toHaveAttribute(
    'datetime',
    /^\d{4}-\d\d-\d\dT/,
  );
  const id = name.toLowerCase().replace(/ /g, '-');
  await expect(summary.getByRole('link', { name: 'Open the new scenario' })).toHaveAttribute(
    'href',
    `/simulation/${id}`,
  );
  await expectAccessible(page);

  await summary.getByRole('link', { name: 'See it in Select a Scenario' }).click();
  await expect(page.getByTestId('scenario-card').filter({ hasText: name })).toBeVisible();
});

test('the configurator previews a whole scenario, and deletes one only after confirming', async ({ page }) => {
  // A long walk with several accessibility scans of long pages (the debrief, the branch diagram).
  test.slow();
  const tag = randomBytes(3).toString('hex');
  const keep = `Kept drill ${tag}`;
  const doomed = `Doomed drill ${tag}`;
  const admin = await adminApi();
  await publishScenario(admin, scenarioFile({ name: keep, type: 'Ransomware', difficulty: 3 }));
  await publishScenario(admin, scenarioFile({ name: doomed, type: 'Ransomware', difficulty: 3 }));
  await admin.dispose();

  await signInAsAdmin(page);
  await page.goto('/admin/scenario-config');
  await expect(page.getByRole('heading', { name: 'Scenario Configurator', level: 1 })).toBeVisible();
  const rows = page.getByTestId('scenario-row');
  await expect(rows.filter({ hasText: tag })).toHaveCount(2);

  await page.getByRole('button', { name: 'Difficulty' }).click();
  await expect(page.getByRole('columnheader', { name: 'Difficulty' })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByRole('button', { name: 'Difficulty' }).click();
  await expect(page.getByRole('columnheader', { name: 'Difficulty' })).toHaveAttribute('aria-sort', 'descending');
  const difficulties = await rows.locator('td:nth-child(3)').allTextContents();
  const levels = difficulties.map((text) => Number.parseInt(text, 10));
  expect(levels).toEqual([...levels].sort((a, b) => b - a));
  await expectAccessible(page);

  await page.getByRole('button', { name: `Preview ${keep}` }).click();
  const preview = page.getByRole('dialog', { name: `Preview: ${keep}` });
  const first = preview.getByTestId('preview-step').first();
  await expect(first.getByRole('heading', { name: `Step 1: Triage the alert (${keep})` })).toBeVisible();
  await expect(first.getByText('T1566.001 Phishing: Spearphishing Attachment')).toBeVisible();
  await expect(first.getByText('Who else received it?')).toBeVisible();
  const correct = first.locator('li[data-correct]');
  await expect(correct).toContainText('Pull the message from every mailbox and sandbox it');
  await expect(correct).toContainText('Correct');
  await expect(correct).toContainText('Leads to: Step 3: Contain the hosts');
  await expect(first.getByRole('listitem').filter({ hasText: 'Ask the user to open it again' })).toContainText(
    'Leads to: Retry (stays on this step)',
  );
  await expect(preview.getByTestId('preview-step').nth(2)).toContainText('Leads to: next step (Step 4: Report)');
  await expect(preview.getByTestId('preview-step').nth(3)).toContainText('Leads to: finish');
  await expectAccessible(page);

  await preview.getByRole('tab', { name: 'Branch diagram' }).click();
  const diagram = preview.getByRole('img', { name: `Branch diagram of ${keep}` });
  await expect(diagram).toBeVisible();
  await expect(diagram.locator('[data-edge="correct"]')).toHaveCount(4);
  await expect(diagram.locator('[data-edge="other"]')).toHaveCount(1);
  await expect(diagram).toContainText('↺ Retry');
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  await page.getByRole('button', { name: `Delete ${doomed}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete scenario' });
  await expect(confirm).toContainText(doomed);
  await confirm.getByRole('button', { name: 'Cancel' }).first().click();
  await expect(rows.filter({ hasText: doomed })).toHaveCount(1);

  await page.getByRole('button', { name: `Delete ${doomed}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete scenario' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(rows.filter({ hasText: doomed })).toHaveCount(0);
  await expect(rows.filter({ hasText: keep })).toHaveCount(1);
  await page.reload();
  await expect(rows.filter({ hasText: keep })).toHaveCount(1);
  await expect(rows.filter({ hasText: doomed })).toHaveCount(0);
});

test('the difficulty an admin saves decides which scenarios the picker recommends', async ({ page }) => {
  const tag = randomBytes(3).toString('hex');
  const expert = `Expert drill ${tag}`;
  const novice = `Novice drill ${tag}`;
  const admin = await adminApi();
  await publishScenario(admin, scenarioFile({ name: expert, type: 'Data Breach', difficulty: 5 }));
  await publishScenario(admin, scenarioFile({ name: novice, type: 'Data Breach', difficulty: 1 }));

  try {
    await signInAsAdmin(page);
    await page.goto('/admin/difficulty');
    await expect(page.getByRole('heading', { name: 'Difficulty Adjuster', level: 1 })).toBeVisible();
    const slider = page.getByRole('slider', { name: 'Current Difficulty' });
    await expect(slider).toHaveAttribute('aria-valuenow', '3');
    await expectAccessible(page);

    await slider.focus();
    await page.keyboard.press('End');
    await expect(slider).toHaveAttribute('aria-valuenow', '5');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Difficulty saved: 5 (Expert).')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('slider', { name: 'Current Difficulty' })).toHaveAttribute('aria-valuenow', '5');

    await page.goto('/scenarios');
    const cards = page.getByTestId('scenario-card');
    await expect(cards.filter({ hasText: expert }).getByText('Recommended')).toBeVisible();
    await expect(cards.filter({ hasText: novice })).toBeVisible();
    await expect(cards.filter({ hasText: novice }).getByText('Recommended')).toHaveCount(0);
  } finally {
    // Other specs share this server: leave the platform at its default.
    await admin.put('/api/settings/difficulty', { data: { difficulty: 3 } });
    await admin.dispose();
  }
});

test('a student opening the configurator lands on the dashboard', async ({ page }) => {
  await signInPage(page, await seedUser());
  await page.goto('/admin/scenario-config');
  await expect(page).toHaveURL(/\/dashboard$/);
});

/** Drops a file on the page as a person dragging it from their file manager would. */
async function dropFile(page: Page, name: string, text: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, text }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'application/yaml' }));
      return transfer;
    },
    { name, text },
  );
  const target = page.getByRole('heading', { name: 'Upload Scenario', level: 1 });
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await expect(page.getByText('Drop the file to choose it.')).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByText('Drop the file to choose it.')).toBeHidden();
}

test('a file dropped on the upload page is chosen, and Check only lists the findings without publishing', async ({
  page,
}) => {
  const name = `Checked drill ${randomBytes(3).toString('hex')}`;
  const text = scenarioFile({ name, type: 'Hacktivism', difficulty: 2 });
  await signInAsAdmin(page);
  await page.goto('/upload');

  await dropFile(page, 'broken.yaml', BROKEN_SCENARIO_FILE);
  await expect(page.getByRole('button', { name: 'Scenario file' })).toHaveText('broken.yaml');
  await page.getByRole('button', { name: 'Check only' }).click();
  const results = page.getByRole('region', { name: 'Check results' });
  await expect(results.getByText('3 problems')).toBeVisible();
  await expect(results.getByRole('list', { name: 'Problems in the file' }).getByRole('listitem')).toHaveText([
    'steps[0].options[0].next_step: no step with id "nowhere"',
    'steps[0].correct_option: 4 is out of range (2 options)',
    'steps[0].mitre_attack: "T9999" is not an active ATT&CK Enterprise technique',
  ]);
  await expect(results).toContainText('broken.yaml: an upload of this file would be refused. Nothing was published');
  await expectAccessible(page);

  await dropFile(page, 'good-drill.yaml', text);
  await expect(results).toHaveCount(0);
  await page.getByRole('button', { name: 'Check only' }).click();
  await expect(results.getByText('No problems found')).toBeVisible();
  const id = name.toLowerCase().replace(/ /g, '-');
  await expect(results).toContainText(`"${name}" (${id}), 4 steps: uploading this file would publish it.`);
  await expect(results.getByText('1 warning')).toBeVisible();
  await expect(results.getByRole('list', { name: 'Warnings' }).getByRole('listitem')).toContainText([
    'steps: the correct option is the longest one in 4 of 4 choice steps',
  ]);
  await expectAccessible(page);

  // Nothing was published: the picker does not list it.
  const list = (await (await page.request.get('/api/sim/list')).json()) as { scenarios: { id: string }[] };
  expect(list.scenarios.map((scenario) => scenario.id)).not.toContain(id);
});
