import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';

// A first start of its own: a fresh data directory and no ADMIN_PASSWORD, so the server creates admin@localhost
// and prints a generated password, as an operator trying Tradecraft out would see it.
const SERVER = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 4817) + 1000;
const origin = `http://127.0.0.1:${port}`;
const NEW_PASSWORD = 'Own!Password2026';

let server: ChildProcess;
let dataDir: string;
let printedPassword: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-first-admin-'));
  server = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: origin,
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: process.env.WEB_DIST_DIR ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  printedPassword = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no password printed:\n${output}`)), 30_000);
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /password: (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  for (let tries = 0; tries < 100; tries++) {
    if (
      await fetch(`${origin}/api/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the first-start server did not answer');
});

test.afterAll(async () => {
  server.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(page: Page, password: string) {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill('admin@localhost');
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

test('the printed first-start password opens only a "choose your password" page, then stops signing in', async ({
  page,
}) => {
  await signIn(page, printedPassword);
  await expect(page).toHaveURL(`${origin}/choose-password`);
  await expect(page.getByRole('heading', { name: 'Choose your password', level: 1 })).toBeVisible();
  await expect(page.getByText('That password is for one use')).toBeVisible();
  await expectAccessible(page);

  // Any other screen leads back here; the server refuses its data meanwhile.
  await page.goto(`${origin}/admin/users`);
  await expect(page).toHaveURL(`${origin}/choose-password`);
  const refused = await page.request.get(`${origin}/api/users`);
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ error: 'Choose a new password before continuing.' });

  // The printed one cannot simply be chosen again.
  await page.getByLabel('Printed password').fill(printedPassword);
  await page.getByLabel(/^New password/).fill(printedPassword);
  await page.getByLabel('Confirm new password').fill(printedPassword);
  await page.getByRole('button', { name: 'Save password and continue' }).click();
  await expect(page.getByText('Choose a password other than your current one.')).toBeVisible();

  await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Save password and continue' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, printedPassword);
  await expect(page.getByRole('alert')).toContainText('Incorrect email or password.');
  await signIn(page, NEW_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
});

test('a setup checklist on the dashboard follows what is done and keeps dismissals', async ({ page }) => {
  await signIn(page, NEW_PASSWORD);
  const checklist = page.getByRole('region', { name: 'Set up Tradecraft' });
  await expect(checklist).toBeVisible();
  // The password was just changed and PUBLIC_ORIGIN is set for this server.
  await expect(checklist.getByText('2 of 5 done')).toBeVisible();
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Change your password' })).toContainText('Done');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Set the public address' })).toContainText('Done');
  await expectAccessible(page);

  // Each step links to where it is done.
  await checklist.getByRole('link', { name: 'Open Difficulty Adjuster' }).click();
  await expect(page).toHaveURL(`${origin}/admin/difficulty`);
  await page.getByRole('slider').press('ArrowRight');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved for the platform')).toHaveCount(0);
  await page.goto(`${origin}/admin`);
  await expect(checklist.getByText('3 of 5 done')).toBeVisible();
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Choose the platform difficulty' })).toContainText(
    'Done',
  );

  await expect(checklist.getByRole('link', { name: 'Open Pending Approvals' })).toHaveAttribute(
    'href',
    '/admin/pending-users',
  );
  await checklist.getByRole('button', { name: 'Dismiss: Upload a scenario of your own' }).click();
  await expect(checklist.getByText('Upload a scenario of your own')).toHaveCount(0);
  await page.reload();
  await expect(checklist.getByText('Approve your first trainee')).toBeVisible();
  await expect(checklist.getByText('Upload a scenario of your own')).toHaveCount(0);

  // The last open step dismissed: the checklist is gone.
  await checklist.getByRole('button', { name: 'Dismiss: Approve your first trainee' }).click();
  await expect(checklist).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Set up Tradecraft' })).toHaveCount(0);
});
