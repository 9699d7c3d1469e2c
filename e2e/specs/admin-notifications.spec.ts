import { expect, request, test } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInAsAdmin, signInPage, STUDENT_PASSWORD, uniqueEmail } from '../support/api';

test("the admin's bell counts up live when someone registers elsewhere, and marks all read when asked", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/admin');
  const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toBeVisible();
  // Start from nothing unread, so the count below is this test's alone.
  await bell.click();
  await expect(page.getByRole('heading', { name: 'Notifications', level: 2 })).toBeVisible();
  const markAll = page.getByRole('button', { name: 'Mark all read' });
  if (await markAll.isEnabled()) await markAll.click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Notifications, 0 unread' })).toBeVisible();

  // Someone registers in another browser (its own context, no shared cookies).
  const email = uniqueEmail('bell');
  const elsewhere = await request.newContext({ baseURL });
  const registered = await elsewhere.post('/api/auth/register', {
    data: { firstName: 'Bell', lastName: 'Ringer', designation: 'SOC Analyst', email, password: STUDENT_PASSWORD },
  });
  expect(registered.status()).toBe(201);
  await elsewhere.dispose();

  // No reload: the stream tells the page.
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  const dropdown = page.getByRole('dialog');
  await expect(dropdown).toContainText(`Bell Ringer (${email}) registered and awaits approval.`);
  await expectAccessible(page);
  // The accessibility scan scrolls through a long list, which can close the dropdown: open it again if so.
  if (!(await dropdown.isVisible())) await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  await dropdown.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByRole('button', { name: 'Notifications, 0 unread' })).toBeVisible();
  await dropdown.getByRole('link', { name: 'Open' }).first().click();
  await expect(page.getByRole('heading', { name: 'Pending Approvals', level: 1 })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(1);
});

test("a trainee's bell announces scenarios published since the count they last saw (local scenarioCount)", async ({
  page,
}) => {
  const student = await seedUser();
  await signInPage(page, student);
  const count = ((await (await page.request.get('/api/sim/list')).json()) as { scenarios: unknown[] }).scenarios.length;
  expect(count).toBeGreaterThan(0); // the built-in library
  // They last saw one scenario fewer than there are now.
  await page.addInitScript((seen) => window.localStorage.setItem('scenarioCount', String(seen)), count - 1);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  await expect(page.getByRole('dialog')).toContainText('1 new scenario published.');
  await expect(page.getByRole('button', { name: 'Notifications, 0 unread' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('scenarioCount'))).toBe(String(count));
});
