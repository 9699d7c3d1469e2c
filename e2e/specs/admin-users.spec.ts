import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInAsAdmin } from '../support/api';

const rowOf = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

/**
 * Searches Manage Users for one person and waits for the answer: the unsearched list, dimmed while the search is on
 * its way, can hold the row too, and a search landing later dims the list under whatever is checked next.
 */
async function searchForOne(page: Page, text: string) {
  await page.getByLabel('Search').fill(text);
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table).toHaveAttribute('aria-busy', 'false');
}

test('the dashboard says users are pending, links to the review, and its cards open their screens', async ({
  page,
}) => {
  await seedUser({ role: 'pending' });
  await signInAsAdmin(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('There are users pending approval.')).toBeVisible();
  await expect(page.getByRole('link', { name: /Pending approvals\s*\d+/ })).toHaveAttribute(
    'href',
    '/admin/pending-users',
  );
  await expect(page.getByRole('link', { name: /Failed sign-ins today\s*\d+/ })).toHaveAttribute(
    'href',
    '/admin/monitoring',
  );
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Review', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Pending Approvals', level: 1 })).toBeVisible();
});

test('approving a pending user takes them off the list at once; rejecting asks first and deletes', async ({ page }) => {
  const approved = await seedUser({ role: 'pending', firstName: 'Approve', lastName: 'Me' });
  const rejected = await seedUser({ role: 'pending', firstName: 'Reject', lastName: 'Me' });
  await signInAsAdmin(page);
  await page.goto('/admin/pending-users');

  const row = rowOf(page, approved.email);
  await expect(row).toContainText('Approve Me');
  await expect(row).toContainText('SOC Analyst');
  await expectAccessible(page);
  await row.getByRole('button', { name: 'Approve as Student' }).click();
  await expect(rowOf(page, approved.email)).toHaveCount(0);
  await expect(page.getByText('Approved Approve Me as student.')).toBeVisible();

  await rowOf(page, rejected.email).getByRole('button', { name: 'Reject' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject registration' });
  await expect(dialog).toContainText(rejected.email);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rowOf(page, rejected.email)).toHaveCount(1);
  await rowOf(page, rejected.email).getByRole('button', { name: 'Reject' }).click();
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(rowOf(page, rejected.email)).toHaveCount(0);

  // Both decisions are on the record, and the approved user now signs in.
  const api = await adminApi();
  const audit = await (await api.get(`/api/audit/logs?details=${encodeURIComponent(rejected.email)}`)).json();
  expect(audit.items.map((entry: { action: string }) => entry.action)).toEqual(['reject user']);
  const users = await (await api.get(`/api/users?search=${encodeURIComponent(approved.email)}`)).json();
  expect(users.items).toMatchObject([{ email: approved.email, role: 'student' }]);
  await api.dispose();
});

test("an admin edits a user's role in Manage Users, and cannot demote themself", async ({ page }) => {
  const user = await seedUser({ firstName: 'Role', lastName: 'Change' });
  await signInAsAdmin(page);
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Manage Users', level: 1 })).toBeVisible();
  await searchForOne(page, user.email);
  const row = rowOf(page, user.email);
  await expect(row).toContainText('Student');
  await expect(page.getByRole('row')).toHaveCount(2); // the header and this user
  await expectAccessible(page);

  await row.getByRole('button', { name: `Edit ${user.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user' });
  await dialog.getByLabel('Role', { exact: true }).click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await dialog.getByLabel('Designation').fill('Threat Intel Lead');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Admin');
  await expect(row).toContainText('Threat Intel Lead');

  // Sorting by a header: first click ascending, the next descending.
  const emailHeader = page.getByRole('columnheader', { name: /Email/ });
  await page.getByLabel('Search').fill('');
  await emailHeader.getByRole('button').click();
  await expect(emailHeader).toHaveAttribute('aria-sort', 'ascending');
  await emailHeader.getByRole('button').click();
  await expect(emailHeader).toHaveAttribute('aria-sort', 'descending');

  // The admin's own row: role and disabled are locked, with the reason.
  await searchForOne(page, 'admin@e2e.test');
  await rowOf(page, 'admin@e2e.test').getByRole('button', { name: 'Edit admin@e2e.test' }).click();
  await expect(dialog.getByText('You cannot remove your own admin role.')).toBeVisible();
  await expect(dialog.getByRole('switch', { name: 'Disabled' })).toBeDisabled();
});

test('a user locked by three wrong passwords shows as Locked, and the admin lifts the lock at once', async ({
  page,
  request,
}) => {
  const user = await seedUser({ firstName: 'Lena', lastName: 'Locked' });
  for (let attempt = 1; attempt <= 3; attempt++) {
    await request.post('/api/auth/login', { data: { email: user.email, password: `Wrong!pass${attempt}` } });
  }
  await signInAsAdmin(page);
  await page.goto('/admin/users');
  await searchForOne(page, user.email);
  const row = rowOf(page, user.email);
  await expect(row).toContainText('Locked');
  await expectAccessible(page);

  await row.getByRole('button', { name: `Edit ${user.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user' });
  await expect(
    dialog.getByText(/^Locked after three wrong passwords until .+; switch this off to lift the lock now\.$/),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users' })).toHaveAttribute('aria-busy', 'false');
  await expectAccessible(page);
  await dialog.getByRole('switch', { name: 'Disabled' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Active');
  expect(
    (await request.post('/api/auth/login', { data: { email: user.email, password: user.password } })).status(),
  ).toBe(200);
});

test('table columns resize by dragging and by keyboard, never below 50 px', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin/users');
  const grip = page.getByRole('separator', { name: 'Resize Email column' });
  await expect(grip).toHaveAttribute('aria-valuenow', '220');
  await grip.focus();
  await page.keyboard.press('ArrowRight');
  await expect(grip).toHaveAttribute('aria-valuenow', '230');
  const box = (await grip.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 400, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(grip).toHaveAttribute('aria-valuenow', '50');
});
