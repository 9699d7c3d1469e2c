import fs from 'node:fs';
import { expect, request, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { expectAccessible } from '../support/a11y';
import { baseURL } from '../playwright.config';
import { adminApi, seedUser, signInAsAdmin } from '../support/api';

/** Today in the browser's (and this machine's) time zone, as a date input holds it. */
const localToday = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

test('the audit log filters, pages through the results, and downloads audit_logs.xlsx for a date range', async ({
  page,
}) => {
  // The approval and twelve edits of one user: thirteen audit entries whose details name that user.
  const user = await seedUser({ firstName: 'Audit', lastName: 'Trail' });
  const api = await adminApi();
  for (let index = 1; index <= 12; index += 1) {
    const response = await api.patch(`/api/users/${user.id}`, { data: { designation: `Analyst grade ${index}` } });
    expect(response.ok()).toBe(true);
  }
  await api.dispose();

  await signInAsAdmin(page);
  await page.goto('/admin/audit-log');
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Details' }).fill(user.email.toUpperCase()); // contains, ignoring case
  const rows = page.getByRole('row').filter({ hasText: user.email });
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText('Edit user'); // the action, capitalised
  await expect(rows.first()).toContainText('admin@e2e.test');
  await expect(rows.first()).toContainText('Analyst grade 12'); // newest first
  await expect(page.getByText('Showing 1–10 of 13 entries')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(rows.nth(1)).toContainText('"SOC Analyst" → "Analyst grade 1"');
  await expect(rows.last()).toContainText('Approve user');

  // Any filter change goes back to page 1.
  await page.getByRole('textbox', { name: 'Action' }).fill('EDIT');
  await expect(page.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  await expect(rows).toHaveCount(10);
  await expect(page.getByText('Showing 1–10 of 12 entries')).toBeVisible();
  await page.getByRole('textbox', { name: 'Screen' }).fill('no such screen');
  await expect(page.getByText('No audit logs found.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Screen' }).fill('');

  // Download needs both dates.
  const download = page.getByRole('button', { name: 'Download' });
  await expect(download).toBeDisabled();
  await page.getByLabel('Start date').fill(localToday());
  await expect(download).toBeDisabled();
  await page.getByLabel('End date').fill(localToday());
  const downloadLink = page.getByRole('link', { name: 'Download' });
  const [file] = await Promise.all([page.waitForEvent('download'), downloadLink.click()]);
  expect(file.suggestedFilename()).toBe('audit_logs.xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(fs.readFileSync(await file.path()) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  expect((sheet.getRow(1).values as unknown[]).slice(1, 5)).toEqual(['Actor', 'Action', 'Details', 'Screen']);
  const details: unknown[] = [];
  sheet.eachRow((row, number) => {
    if (number > 1) details.push(row.getCell(3).value);
  });
  expect(details.filter((text) => String(text).includes(user.email))).toHaveLength(13);
  expect(sheet.getRow(2).getCell(5).value).toBeInstanceOf(Date);
});

test('user monitoring shows sign-ins, searches by email and exports the matching rows as CSV and XLSX', async ({
  page,
}) => {
  const user = await seedUser();
  const elsewhere = await request.newContext({ baseURL });
  expect((await elsewhere.post('/api/auth/login', { data: { email: user.email, password: user.password } })).ok()).toBe(
    true,
  );
  await elsewhere.dispose();

  await signInAsAdmin(page);
  await page.goto('/admin/monitoring');
  await expect(page.getByRole('heading', { name: 'User Monitoring', level: 1 })).toBeVisible();
  await expect(page.getByText(/^Logins today/)).toBeVisible();
  await page.getByLabel('Search by email').fill(user.email.toUpperCase());
  // The unsearched list, shown dimmed while the search is on its way, holds the sign-in too: wait for the answer.
  const table = page.getByRole('table', { name: 'Sign-in activity' });
  await expect(table.locator('tbody tr').filter({ hasNotText: user.email })).toHaveCount(0);
  await expect(table).toHaveAttribute('aria-busy', 'false');
  const rows = page.getByRole('row').filter({ hasText: user.email });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Login');
  await expect(rows.first()).toContainText('student');
  await expectAccessible(page);

  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('user_login_logs.csv');
  const parsed = Papa.parse<Record<string, string>>(fs.readFileSync(await file.path(), 'utf8'), {
    header: true,
    skipEmptyLines: true,
  });
  expect(parsed.meta.fields).toEqual(['Email', 'Role', 'Event', 'Timestamp']);
  expect(parsed.data).toEqual([
    { Email: user.email, Role: 'student', Event: 'login', Timestamp: expect.stringMatching(/^\d{4}-/) },
  ]);

  const xlsxLink = page.getByRole('link', { name: 'Export XLSX' });
  const [workbook] = await Promise.all([page.waitForEvent('download'), xlsxLink.click()]);
  expect(workbook.suggestedFilename()).toBe('user_login_logs.xlsx');
  // The same link fetched with the same session: the type the browser was given.
  const response = await page.request.get((await xlsxLink.getAttribute('href'))!);
  expect(response.headers()['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  expect(
    fs
      .readFileSync(await workbook.path())
      .subarray(0, 2)
      .toString(),
  ).toBe('PK'); // a zip: an XLSX workbook
});
