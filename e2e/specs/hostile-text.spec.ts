import { randomBytes } from 'node:crypto';
import { request as playwrightRequest, expect, test, type Browser, type Page } from '@playwright/test';
import { baseURL, E2E_ADMIN } from '../playwright.config';
import { adminApi, STUDENT_PASSWORD, uniqueEmail } from '../support/api';

// Script and HTML payloads in every text a user or a scenario author controls, then every screen that shows
// them: nothing may run and every payload must read as text. The pages are opened with the Content Security
// Policy bypassed, so what is checked is the rendering itself, not only the policy that backs it up.

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=1</script>';
const SVG = '"><svg onload=window.__pwned=1>';
const JS_URL = 'javascript:window.__pwned=1';

const tag = randomBytes(3).toString('hex');
const scenarioId = `hostile-${tag}`;
const scenarioName = `${IMG} lure ${tag}`;

const hostileScenario = (sourceUrl: string) => `
id: ${scenarioId}
name: ${JSON.stringify(scenarioName)}
type: ${JSON.stringify(SCRIPT)}
difficulty: 1
description: ${JSON.stringify(`${SVG} description`)}
sources:
  - title: ${JSON.stringify(`${IMG} source title`)}
    url: ${JSON.stringify(sourceUrl)}
steps:
  - id: first
    title: ${JSON.stringify(`${SCRIPT} step title`)}
    description: ${JSON.stringify(`${IMG} step description`)}
    hint: ${JSON.stringify(`${SVG} hint`)}
    artifacts:
      - kind: email
        title: ${JSON.stringify(`${SVG} artifact title`)}
        source: ${JSON.stringify(`${SCRIPT} artifact source`)}
        content: |
          ${IMG} artifact content
          ${SCRIPT}
        indicators:
          - type: url
            value: ${JSON.stringify(JS_URL)}
            context: ${JSON.stringify(`${IMG} indicator context`)}
    options:
      - text: ${JSON.stringify(`${IMG} option right`)}
        feedback: ${JSON.stringify(`${SCRIPT} feedback right`)}
      - text: ${JSON.stringify(`${SVG} option wrong`)}
        feedback: ${JSON.stringify(`${JS_URL} feedback wrong`)}
    correct_option: 0
  - id: second
    title: The second step
    description: Choose the right answer.
    options:
      - Right
      - Wrong
    correct_option: 0
`;

const trainee = {
  email: uniqueEmail('hostile'),
  password: STUDENT_PASSWORD,
  firstName: IMG,
  lastName: SVG,
  designation: SCRIPT,
};
const pending = {
  email: uniqueEmail('hostile-pending'),
  password: STUDENT_PASSWORD,
  firstName: SCRIPT,
  lastName: `${IMG} pending`,
  designation: SVG,
};
let traineeId: string;
let runId: string;

async function register(user: typeof trainee): Promise<void> {
  const api = await playwrightRequest.newContext({ baseURL });
  const response = await api.post('/api/auth/register', { data: user });
  expect(response.status(), await response.text()).toBe(201);
  await api.dispose();
}

test.beforeAll(async () => {
  await register(trainee);
  await register(pending);
  const admin = await adminApi();
  const users = (await (await admin.get('/api/users/pending')).json()) as { users: { id: string; email: string }[] };
  traineeId = users.users.find((user) => user.email === trainee.email)!.id;
  expect((await admin.post(`/api/users/${traineeId}/approve`, { data: { role: 'student' } })).ok()).toBe(true);
  // An admin action whose audit details carry a payload.
  expect((await admin.patch(`/api/users/${traineeId}`, { data: { designation: `${JS_URL} designation` } })).ok()).toBe(
    true,
  );
  const uploaded = await admin.post('/api/sim/upload-scenario', {
    multipart: {
      file: {
        name: `${SVG}.yaml`,
        mimeType: 'application/yaml',
        buffer: Buffer.from(hostileScenario('https://example.com/report?q=<script>')),
      },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  await admin.dispose();
});

/** A page that records dialogs and renders without the CSP, signed in through the API. */
async function openAs(
  browser: Browser,
  account: { email: string; password: string } | 'admin',
): Promise<{ page: Page; dialogs: string[] }> {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const credentials = account === 'admin' ? E2E_ADMIN : account;
  const response = await page.request.post('/api/auth/login', {
    data: { email: credentials.email, password: credentials.password },
  });
  expect(response.ok()).toBe(true);
  return { page, dialogs };
}

/** Nothing ran, no dialog opened, and no payload turned into an element. */
async function expectInert(page: Page, dialogs: string[], screen: string): Promise<void> {
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
    `${screen}: window.__pwned`,
  ).toBeUndefined();
  expect(dialogs, `${screen}: dialogs`).toEqual([]);
  const injected = await page.evaluate(
    () =>
      document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload]').length +
      [...document.querySelectorAll('script')].filter((script) => script.textContent?.includes('__pwned')).length +
      [...document.querySelectorAll('a[href]')].filter((link) =>
        link.getAttribute('href')!.trim().toLowerCase().startsWith('javascript:'),
      ).length,
  );
  expect(injected, `${screen}: elements made from a payload`).toBe(0);
}

/** The payload appears on the screen as the very characters it is made of. */
async function expectText(page: Page, text: string): Promise<void> {
  await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
}

test('a scenario whose source is a javascript: address is refused by the checker', async () => {
  const admin = await adminApi();
  const response = await admin.post('/api/sim/upload-scenario', {
    multipart: {
      file: {
        name: 'js-source.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(hostileScenario(JS_URL).replace(scenarioId, `${scenarioId}-js`)),
      },
    },
  });
  expect(response.status()).toBe(400);
  expect(((await response.json()) as { problems: string[] }).problems).toContain(
    `sources[0].url: must be a web address starting with http:// or https:// (found "${JS_URL}")`,
  );
  await admin.dispose();
});

test('the trainee screens show every payload as text and run none of it', async ({ browser }) => {
  const { page, dialogs } = await openAs(browser, trainee);

  await page.goto('/scenarios');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectText(page, scenarioName);
  await expectText(page, `${SVG} description`);
  await expectText(page, SCRIPT);
  await expectInert(page, dialogs, 'picker');

  await page.goto(`/simulation/${scenarioId}`);
  await expect(page.getByRole('heading', { level: 1, name: scenarioName })).toBeVisible();
  await expect(page).toHaveURL(/\?simId=/);
  runId = new URL(page.url()).searchParams.get('simId')!;
  for (const text of [
    `${SCRIPT} step title`,
    `${IMG} step description`,
    `${SVG} artifact title`,
    `${SCRIPT} artifact source`,
    `${IMG} artifact content`,
    JS_URL,
    `${IMG} indicator context`,
  ]) {
    await expectText(page, text);
  }
  await page.getByRole('button', { name: 'Show Hint' }).click();
  await expectText(page, `${SVG} hint`);
  await expectInert(page, dialogs, 'player');
  await page.getByRole('button', { name: `${IMG} option right` }).click();
  await expectText(page, `${SCRIPT} feedback right`);
  await expectInert(page, dialogs, 'player feedback');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Right', exact: true }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Simulation Complete!' })).toBeVisible();
  await expectText(page, `${IMG} option right`);
  await expectText(page, `${SCRIPT} feedback right`);
  await expectInert(page, dialogs, 'end screen');

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectText(page, scenarioName);
  await page
    .getByRole('button', { name: /^Timeline/ })
    .first()
    .click();
  await expectText(page, `${SCRIPT} feedback right`);
  await expectInert(page, dialogs, 'dashboard');

  await page.goto(`/runs/${runId}/report`);
  const report = page.getByTestId('run-report');
  await expect(report).toBeVisible();
  await expectText(page, scenarioName);
  const source = report.getByRole('link', { name: `${IMG} source title` });
  await expect(source).toHaveAttribute('href', /^https:\/\/example\.com\/report\?q=/);
  await expectText(page, `${SCRIPT} step title`);
  await expectInert(page, dialogs, 'report');

  await page.goto('/profile');
  await expect(page.getByLabel('First Name')).toHaveValue(IMG);
  await expect(page.getByLabel('Last Name')).toHaveValue(SVG);
  await expect(page.getByLabel('Designation')).toHaveValue(`${JS_URL} designation`);
  await expectInert(page, dialogs, 'profile');
  await page.screenshot({ path: '/tmp/shots-h10/hostile-profile.png', fullPage: true });
});

test('the admin screens show every payload as text and run none of it', async ({ browser }) => {
  // It walks seven admin screens, each loaded with hostile payloads and checked, on a shared machine.
  test.slow();
  const { page, dialogs } = await openAs(browser, 'admin');

  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  await expectText(page, `${SCRIPT} ${IMG} pending`);
  await expectInert(page, dialogs, 'notification bell');

  await page.goto('/admin/pending-users');
  await expectText(page, `${IMG} pending`);
  await expectText(page, SCRIPT);
  await expectInert(page, dialogs, 'pending approvals');

  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByLabel('Search').fill(trainee.email);
  await expectText(page, `${JS_URL} designation`);
  await expectText(page, IMG);
  await expectInert(page, dialogs, 'manage users');

  await page.goto('/admin/monitoring');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectText(page, trainee.email);
  await expectInert(page, dialogs, 'user monitoring');

  await page.goto('/admin/audit-log');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectText(page, `Uploaded scenario "${scenarioName}"`);
  await expectText(page, `${JS_URL} designation`);
  await expectInert(page, dialogs, 'audit log');

  await page.goto('/admin/training-progress');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectText(page, scenarioName);
  await expectText(page, `${IMG} ${SVG}`);
  await expectInert(page, dialogs, 'training progress');

  await page.goto('/admin/scenario-config');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectText(page, scenarioName);
  await page.getByRole('button', { name: `Preview ${scenarioName}` }).click();
  const preview = page.getByRole('dialog', { name: `Preview: ${scenarioName}` });
  await expect(preview).toBeVisible();
  for (const text of [
    `${SCRIPT} step title`,
    `${IMG} option right`,
    `${SCRIPT} feedback right`,
    `${JS_URL} feedback wrong`,
    `${SVG} hint`,
  ]) {
    await expect(preview.getByText(text, { exact: false }).first()).toBeVisible();
  }
  await expectInert(page, dialogs, 'configurator preview');
  await page.screenshot({ path: '/tmp/shots-h10/hostile-preview.png' });
});
