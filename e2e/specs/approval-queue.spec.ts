import { expect, request, test, type Browser, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInAsAdmin, signInPage, STUDENT_PASSWORD, uniqueEmail } from '../support/api';

const rowOf = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

/** A second admin in a browser of their own (no shared cookies), on the approval queue. */
async function otherAdminOnQueue(browser: Browser) {
  const admin = await seedUser({ role: 'admin', firstName: 'Other', lastName: 'Admin' });
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInPage(page, admin);
  await page.goto('/admin/pending-users');
  await expect(page.getByRole('heading', { name: 'Pending Approvals', level: 1 })).toBeVisible();
  return { context, page };
}

async function register(firstName: string, lastName: string) {
  const email = uniqueEmail('queue');
  const anonymous = await request.newContext({ baseURL });
  const response = await anonymous.post('/api/auth/register', {
    data: { firstName, lastName, designation: 'CTI Analyst', email, password: STUDENT_PASSWORD },
  });
  expect(response.status()).toBe(201);
  await anonymous.dispose();
  return email;
}

test('Approve as Admin names the person and says what an admin can do; Cancel leaves them pending', async ({
  page,
}) => {
  const person = await seedUser({ role: 'pending', firstName: 'Grace', lastName: 'Promoted' });
  await signInAsAdmin(page);
  await page.goto('/admin/pending-users');
  await rowOf(page, person.email).getByRole('button', { name: 'Approve as Admin' }).click();

  const dialog = page.getByRole('dialog', { name: 'Approve as administrator' });
  await expect(dialog).toContainText(`Make Grace Promoted (${person.email}) an administrator?`);
  await expect(dialog).toContainText('approve or reject registrations, and edit, disable or promote any account');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await expect(rowOf(page, person.email)).toHaveCount(1); // still pending

  await rowOf(page, person.email).getByRole('button', { name: 'Approve as Admin' }).click();
  await dialog.getByRole('button', { name: 'Approve as Admin' }).click();
  await expect(page.getByText('Approved Grace Promoted as admin.')).toBeVisible();
  await expect(rowOf(page, person.email)).toHaveCount(0);
  const users = await page.request.get(`/api/users?search=${encodeURIComponent(person.email)}`);
  expect(((await users.json()) as { items: { role: string }[] }).items[0]?.role).toBe('admin');
});

test('a new registration appears in every open queue without reloading, and leaves them all once handled', async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page);
  await page.goto('/admin/pending-users');
  await expect(page.getByRole('heading', { name: 'Pending Approvals', level: 1 })).toBeVisible();
  const other = await otherAdminOnQueue(browser);
  // Both streams are up before anyone registers (the bell says how many are unread).
  for (const admin of [page, other.page])
    await expect(admin.getByRole('button', { name: /^Notifications, \d+ unread$/ })).toBeVisible();

  const email = await register('Live', 'Arrival');
  await expect(rowOf(page, email)).toHaveCount(1);
  await expect(rowOf(other.page, email)).toHaveCount(1);

  // The other admin rejects it; this admin's queue drops it and the bell no longer counts it as unread.
  await other.page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  await expect(other.page.getByRole('dialog', { name: 'Notifications' })).toContainText(`(${email})`);
  await other.page.keyboard.press('Escape');
  await rowOf(other.page, email).getByRole('button', { name: 'Reject' }).click();
  const confirm = other.page.getByRole('dialog', { name: 'Reject registration' });
  await expect(confirm).toContainText(`Reject the registration of Live Arrival (${email})?`);
  await confirm.getByRole('button', { name: 'Reject' }).click();
  await expect(rowOf(other.page, email)).toHaveCount(0);
  await expect(rowOf(page, email)).toHaveCount(0);

  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  const bell = page.getByRole('dialog', { name: 'Notifications' });
  const item = bell.getByText(`Live Arrival (${email}) registered and awaits approval.`);
  await expect(item).toBeVisible();
  await expect(item).not.toContainText('New:'); // read: handled by the other admin
  await other.context.close();
});

test('"Mark all read" in the bell clears the count; opening the bell alone does not', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin');
  const email = await register('Unread', 'Person');
  const bell = page.getByRole('button', { name: /^Notifications, [1-9]\d* unread$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  const list = page.getByRole('dialog', { name: 'Notifications' });
  await expect(list.getByText(`New: Unread Person (${email}) registered and awaits approval.`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(bell).toBeVisible(); // still unread

  await bell.click();
  await expectAccessible(page);
  await list.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByRole('button', { name: 'Notifications, 0 unread' })).toBeVisible();
  await expect(list.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Notifications, 0 unread' })).toBeVisible();
});
