import { expect, test } from '@playwright/test';

test('an unknown path shows Page Not Found with a link home', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  const home = page.getByRole('link', { name: /home page/i });
  await expect(home).toHaveAttribute('href', '/');
});

test('a signed-out visit to /dashboard ends on the sign-in page, which returns there afterwards', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
});
