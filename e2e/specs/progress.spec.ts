import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInAsAdmin, signInPage, type SeededUser } from '../support/api';

// Progress and reporting, end to end: a trainee plays a scenario through the run API, then finds the run
// on the dashboard, opens its timeline and its after-action report; an admin finds it in Training
// Progress; the skill map downloads an ATT&CK Navigator layer.

interface FixtureStep {
  id: string;
  technique: string;
  options: [string, string];
}

const STEPS: FixtureStep[] = [
  {
    id: 'triage',
    technique: 'T1566.001',
    options: ['Pull the message from every mailbox', 'Forward it to the help desk'],
  },
  {
    id: 'relay',
    technique: 'T1557',
    options: ['Classify it as an adversary-in-the-middle relay', 'Call it a fake login page'],
  },
  { id: 'scope', technique: 'T1078.004', options: ['Revoke the stolen session tokens', 'Reset the password only'] },
  {
    id: 'report',
    technique: 'T1566.001',
    options: ['Write the timeline and indicators', 'Close the case without notes'],
  },
];

/** A scenario file in the library's YAML format; option 0 is always the right answer. */
function scenarioYaml(id: string, name: string, steps: FixtureStep[] = STEPS): string {
  const lines = [
    `id: ${id}`,
    `name: ${name}`,
    'type: Phishing',
    'difficulty: 2',
    'description: A reported invoice email turns out to be an adversary-in-the-middle phish.',
    'sources:',
    '  - title: "CISA: Phishing guidance"',
    '    url: https://www.cisa.gov/resources-tools/resources/phishing-guidance-stopping-attack-cycle-phase-one',
    'steps:',
  ];
  for (const step of steps) {
    lines.push(
      `  - id: ${step.id}`,
      `    title: Step ${step.id}`,
      `    description: Decide what to do at ${step.id}.`,
      `    mitre_attack: ${step.technique}`,
      '    options:',
      `      - text: ${step.options[0]}`,
      `        feedback: Right, ${step.id} handled.`,
      `      - text: ${step.options[1]}`,
      `        feedback: Not enough at ${step.id}.`,
      '    correct_option: 0',
    );
  }
  return `${lines.join('\n')}\n`;
}

async function uploadScenario(
  admin: APIRequestContext,
  id: string,
  name: string,
  steps?: FixtureStep[],
): Promise<void> {
  const response = await admin.post('/api/sim/upload-scenario', {
    multipart: {
      file: { name: `${id}.yaml`, mimeType: 'application/yaml', buffer: Buffer.from(scenarioYaml(id, name, steps)) },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

interface RunState {
  id: string;
  status: string;
  currentStep: { id: string; options: { text: string }[] } | null;
}

/**
 * Plays a run through the run API as the signed-in page user, answering each step with the given option of the
 * file (0 right, 1 wrong); the run shows options in its own order, so the answer names the option as shown.
 */
async function playRun(page: Page, scenarioId: string, answers: number[]): Promise<string> {
  const started = await page.request.post('/api/runs', { data: { scenarioId, startOver: true } });
  expect(started.status(), await started.text()).toBe(201);
  let run = ((await started.json()) as { run: RunState }).run;
  for (const fileIndex of answers) {
    expect(run.status).toBe('in_progress');
    const step = run.currentStep!;
    const text = STEPS.find((candidate) => candidate.id === step.id)!.options[fileIndex];
    const optionIndex = step.options.findIndex((option) => option.text === text);
    const answered = await page.request.post(`/api/runs/${run.id}/answer`, {
      data: { stepId: step.id, optionIndex, timeMs: 4200 },
    });
    expect(answered.status(), await answered.text()).toBe(200);
    const moved = await page.request.post(`/api/runs/${run.id}/next`, { data: {} });
    expect(moved.status(), await moved.text()).toBe(200);
    run = ((await moved.json()) as { run: RunState }).run;
  }
  expect(run.status).toBe('completed');
  return run.id;
}

const suffix = () => randomBytes(3).toString('hex');

test.describe('progress and reporting', () => {
  let student: SeededUser;
  let scenarioId: string;
  let scenarioName: string;

  test.beforeAll(async () => {
    student = await seedUser({ firstName: 'Priya', lastName: `Progress ${suffix()}` });
    scenarioId = `e2e-progress-${suffix()}`;
    scenarioName = `Invoice relay ${suffix()}`;
    const admin = await adminApi();
    await uploadScenario(admin, scenarioId, scenarioName);
    await admin.dispose();
  });

  test('an ended run is Incomplete on the dashboard, and Resume continues it at the step where it ended', async ({
    page,
  }) => {
    // A trainee of its own: the ended run (25 %) must not change what the later tests find of the shared one.
    await signInPage(page, await seedUser());
    const started = await page.request.post('/api/runs', { data: { scenarioId, startOver: true } });
    expect(started.status(), await started.text()).toBe(201);
    const run = ((await started.json()) as { run: RunState }).run;
    const step = run.currentStep!;
    const optionIndex = step.options.findIndex((option) => option.text === STEPS[0]!.options[0]);
    expect(
      (
        await page.request.post(`/api/runs/${run.id}/answer`, { data: { stepId: step.id, optionIndex, timeMs: 4200 } })
      ).status(),
    ).toBe(200);
    expect((await page.request.post(`/api/runs/${run.id}/next`, { data: {} })).status()).toBe(200);
    expect((await page.request.post(`/api/runs/${run.id}/end`, { data: {} })).status()).toBe(200);

    await page.goto('/dashboard');
    const row = page.locator(`tr[data-run-id="${run.id}"]`);
    await expect(row.getByRole('cell').nth(3)).toHaveText('Incomplete');
    await row.getByRole('link', { name: `Resume: ${scenarioName}` }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Step relay' })).toBeVisible();
    await expect(page.getByTestId('step-counter')).toHaveText('Step 2 · 3 left on the best path');
    await expect(page).toHaveURL(`/simulation/${scenarioId}?simId=${run.id}`);
    expect(((await (await page.request.get(`/api/runs/${run.id}`)).json()) as { run: RunState }).run.status).toBe(
      'in_progress',
    );
    expect((await page.request.post(`/api/runs/${run.id}/end`, { data: {} })).status()).toBe(200);
  });

  test('a finished run shows on the dashboard with its score and result, its timeline and its report', async ({
    page,
  }) => {
    // Dashboard, timeline and report, each scanned for accessibility: near 30 s on a loaded machine.
    test.slow();
    await signInPage(page, student);
    // Right, right, wrong, right: 3 of 4 = 75 %, a Pass.
    const runId = await playRun(page, scenarioId, [0, 0, 1, 0]);

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Progress Dashboard' })).toBeVisible();
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await expect(row.getByRole('cell').nth(0)).toContainText(scenarioName);
    await expect(row.getByRole('cell').nth(1)).toHaveText('75');
    await expect(row.getByRole('cell').nth(2)).toHaveText('Pass');
    await expect(row.getByRole('cell').nth(3)).toHaveText('Completed');
    await expect(row.getByRole('cell').nth(5)).toHaveText('N/A');
    await expect(page.getByText('Runs completed')).toBeVisible();
    await expectAccessible(page);

    const toggle = row.getByRole('button', { name: /^Timeline/ });
    await toggle.click();
    const timeline = page.getByRole('region', { name: /Decision Timeline/ });
    await expect(timeline).toBeVisible();
    await expect(timeline.getByRole('listitem')).toHaveCount(4);
    await expect(timeline.getByRole('listitem').nth(2)).toContainText('Reset the password only');
    await expect(timeline.getByRole('listitem').nth(2)).toContainText('Incorrect.');
    await expect(timeline.getByRole('listitem').nth(2)).toContainText('Decision 3 · Decision · Wrong · Credit 0');
    await expect(row.getByRole('button', { name: /^Hide/ })).toHaveAttribute('aria-expanded', 'true');
    await expectAccessible(page);
    await row.getByRole('button', { name: /^Hide/ }).click();
    await expect(timeline).toBeHidden();

    await row.getByRole('link', { name: /^Report/ }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${runId}/report$`));
    await expect(page.getByRole('heading', { level: 1, name: scenarioName })).toBeVisible();
    const report = page.getByTestId('run-report');
    await expect(report.getByText('3 / 4 (75%)')).toBeVisible();
    await expect(report.getByRole('link', { name: 'CISA: Phishing guidance' })).toBeVisible();
    const decisions = page.getByRole('region', { name: 'Decisions' }).getByRole('listitem');
    await expect(decisions).toHaveCount(4);
    await expect(decisions.nth(2)).toContainText('Wrong');
    await expect(decisions.nth(2)).toContainText('Credit 0');
    await expect(decisions.nth(2)).toContainText('Reset the password only');
    await expect(decisions.nth(2)).toContainText('Revoke the stolen session tokens');
    await expect(decisions.nth(2)).toContainText('4.2 s');
    const techniques = page.getByRole('region', { name: 'Techniques met' });
    await expect(techniques.getByRole('row', { name: /T1078\.004/ })).toContainText('Valid Accounts: Cloud Accounts');
    await expect(page.getByRole('button', { name: 'Print / Save as PDF' })).toBeVisible();
    await expectAccessible(page);
  });

  test('a trainee cannot open another trainee’s report', async ({ page }) => {
    await signInPage(page, student);
    const runId = await playRun(page, scenarioId, [0, 0, 0, 0]);
    const other = await seedUser();
    await page.context().clearCookies();
    await signInPage(page, other);
    await page.goto(`/runs/${runId}/report`);
    await expect(page.getByRole('alert')).toContainText('Simulation run not found.');
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  test('an admin finds the run in Training Progress and exports it', async ({ page }) => {
    await signInPage(page, student);
    const runId = await playRun(page, scenarioId, [0, 1, 1, 0]); // 2 of 4 = 50 %: Fail
    await page.context().clearCookies();
    await signInAsAdmin(page);

    await page.goto('/admin/training-progress');
    await expect(page.getByRole('heading', { level: 1, name: 'Training Progress' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Search by username' }).fill(student.email);
    // The unsearched list, shown dimmed while the search is on its way, holds the run too: wait for the answer.
    const table = page.getByRole('table', { name: 'Training progress' });
    await expect(table.locator('tbody tr').filter({ hasNotText: student.email })).toHaveCount(0);
    await expect(table).toHaveAttribute('aria-busy', 'false');
    const row = page.locator('tr', { has: page.locator(`[data-run-id="${runId}"]`) });
    await expect(row).toBeVisible();
    await expect(row).toContainText(student.email);
    await expect(row).toContainText(scenarioName);
    // The percent, and the run's right first answers and missed steps as its end screen counts them.
    await expect(row.getByRole('cell').nth(2)).toHaveText('50, 2 right · 2 missed');
    await expect(row.getByRole('cell').nth(3)).toHaveText('Fail');
    await expect(row.getByRole('cell').nth(4)).toHaveText('Completed');
    await expectAccessible(page);

    await page.getByRole('button', { name: /Score \(%\)/ }).click();
    await expect(page.getByRole('columnheader', { name: /Score \(%\)/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(
      page.getByRole('table', { name: 'Training progress' }).locator('tbody tr').first().getByRole('cell').nth(2),
    ).toHaveText(/^50, /);

    for (const [format, mediaType] of [
      ['CSV', 'text/csv; charset=utf-8'],
      ['XLSX', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ] as const) {
      const link = page.getByRole('link', { name: `Export ${format}` });
      const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(file.suggestedFilename()).toBe(`training_progress.${format.toLowerCase()}`);
      // The same link fetched with the same session: the type the browser was given.
      const response = await page.request.get((await link.getAttribute('href'))!);
      expect(response.headers()['content-type']).toBe(mediaType);
    }

    await row.getByRole('link', { name: /^Report/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: scenarioName })).toBeVisible();
    await expect(page.getByTestId('run-report')).toContainText(student.email);
  });

  test('the skill map colours the techniques met and downloads a Navigator layer', async ({ page }) => {
    const trainee = await seedUser();
    await signInPage(page, trainee);
    await playRun(page, scenarioId, [0, 1, 0, 0]);

    await page.goto('/skills');
    await expect(page.getByRole('heading', { level: 1, name: 'ATT&CK Skill Map' })).toBeVisible();
    const initialAccess = page.getByRole('region', { name: 'Initial Access' });
    const phishing = initialAccess.locator('[data-technique="T1566.001"]');
    await expect(phishing).toContainText('100%');
    await expect(
      page.getByRole('region', { name: 'Credential Access' }).locator('[data-technique="T1557"]'),
    ).toContainText('0%');
    // A technique in several tactics appears in each of them.
    await expect(page.getByRole('region', { name: 'Collection' }).locator('[data-technique="T1557"]')).toBeVisible();
    await phishing.focus();
    await expect(page.getByRole('tooltip')).toContainText('2 of 2 first answers right');
    // The open tooltip lives in a portal outside the landmarks: close it before the scan.
    await phishing.blur();
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await expectAccessible(page);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download Navigator layer' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('tradecraft-attack-layer.json');
    const layer = JSON.parse(await readDownload(file)) as {
      name: string;
      domain: string;
      versions: { layer: string };
      techniques: { techniqueID: string; score?: number; comment: string }[];
      gradient: { minValue: number; maxValue: number; colors: string[] };
    };
    expect(layer).toMatchObject({
      domain: 'enterprise-attack',
      versions: { layer: '4.5' },
      gradient: { minValue: 0, maxValue: 100 },
    });
    expect(layer.name).toContain(trainee.email);
    expect(layer.techniques).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ techniqueID: 'T1566.001', score: 100 }),
        expect.objectContaining({ techniqueID: 'T1557', score: 0, comment: '0 of 1 first answer right (0 %)' }),
      ]),
    );
  });

  test('the dashboard loads with the same few requests however many scenarios the library holds', async ({ page }) => {
    const trainee = await seedUser();
    await signInPage(page, trainee);
    await playRun(page, scenarioId, [0, 0, 0, 0]);

    const countDashboardRequests = async (): Promise<string[]> => {
      const requests: string[] = [];
      const onRequest = (request: { url(): string }) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith('/api/')) requests.push(pathname);
      };
      page.on('request', onRequest);
      await page.goto('/dashboard');
      await expect(page.locator('tr[data-run-id]').first()).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Recommended next' })).toBeVisible();
      page.off('request', onRequest);
      return requests;
    };

    const before = await countDashboardRequests();
    const admin = await adminApi();
    for (let index = 0; index < 50; index++) {
      await uploadScenario(admin, `e2e-bulk-${suffix()}-${index}`, `Bulk scenario ${index}`, STEPS.slice(0, 2));
    }
    await admin.dispose();
    const after = await countDashboardRequests();

    // One progress request carries everything; the rest is the app frame (session, notification bell, whose
    // "new scenarios" notice reads only the count). Nothing is fetched per scenario (the seed fetched each one),
    // and the notifications once (not again when their stream opens).
    const progressPath = `/api/progress/user/${encodeURIComponent(trainee.email)}`;
    // "Assigned to me" and the practice recommendations (programmes) are one request each, whatever the library.
    const frame = [
      '/api/auth/me',
      '/api/notifications',
      '/api/notifications/stream',
      '/api/sim/list/count',
      '/api/assignments/mine',
      '/api/remediation/mine',
    ];
    for (const requests of [before, after]) {
      expect(requests.filter((path) => path === progressPath)).toHaveLength(1);
      expect(requests.filter((path) => path === '/api/notifications')).toHaveLength(1);
      expect(requests.filter((path) => path !== progressPath && !frame.includes(path))).toEqual([]);
      expect(requests.length).toBeLessThanOrEqual(8);
    }
  });
});

async function readDownload(download: { createReadStream(): Promise<NodeJS.ReadableStream> }): Promise<string> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
