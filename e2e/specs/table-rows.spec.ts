import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { adminApi, seedUser, signInAsAdmin } from '../support/api';

test('rows per page: 25 shows more of the audit log, is remembered for that table, and leaves others at 10', async ({
  page,
}) => {
  // The approval and fourteen edits of one user: fifteen audit entries whose details name that user.
  const user = await seedUser({ firstName: 'Rows', lastName: 'Counted' });
  const api = await adminApi();
  for (let index = 1; index <= 14; index += 1) {
    const response = await api.patch(`/api/users/${user.id}`, { data: { designation: `Grade ${index}` } });
    expect(response.ok()).toBe(true);
  }
  await api.dispose();

  await signInAsAdmin(page);
  await page.goto(`/admin/audit-log?details=${encodeURIComponent(user.email)}`);
  const rows = page.getByRole('row').filter({ hasText: user.email });
  await expect(rows).toHaveCount(10);
  const rowsPerPage = page.getByRole('combobox', { name: 'Rows per page' });
  await expect(rowsPerPage).toHaveValue('10');
  await expect(rowsPerPage.locator('option')).toHaveText(['10', '25', '50', '100']);
  await rowsPerPage.selectOption('25');
  await expect(rows).toHaveCount(15);
  await expect(page.getByText('Showing 1–15 of 15 entries')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Page 2' })).toHaveCount(0);
  await expectAccessible(page);

  await page.reload();
  await expect(rows).toHaveCount(15);
  await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('25');

  // Another table keeps its own choice.
  await page.goto('/admin/users');
  await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('10');
});
