import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInAsAdmin, signInPage } from '../support/api';

// The test server has no SMTP_URL: the screens say mail is not configured, and the choice is kept all the same.

const shoot = async (page: Page, name: string) => {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ['light', 'dark'] as const) {
      // The app keeps its colour scheme in localStorage (Settings, Dark mode).
      await page.evaluate((value) => localStorage.setItem('theme', value), scheme);
      await page.reload();
      await expect(page.getByRole('region', { name: 'Mail' })).toBeVisible();
      await page.getByRole('region', { name: 'Mail' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/shots-mail/${name}-${width}-${scheme}.png` });
    }
  }
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.setViewportSize({ width: 1280, height: 900 });
};

test('a trainee turns on "Email me my notifications" in Settings, and the choice survives a reload', async ({
  page,
}) => {
  const student = await seedUser();
  await signInPage(page, student);
  await page.goto('/settings');
  const mail = page.getByRole('region', { name: 'Mail' });
  await expect(mail.getByText(/Mail is not configured on this server yet/)).toBeVisible();
  const toggle = mail.getByRole('switch', { name: /Email me my notifications/ });
  await expect(toggle).not.toBeChecked();
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).toBeChecked();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Mail' }).getByRole('switch', { name: /Email me/ })).toBeChecked();
  await expectAccessible(page);
  await shoot(page, 'settings');
});

test('the admin dashboard says what to set while mail is off', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin');
  const card = page.getByRole('region', { name: 'Mail' });
  await expect(card.getByText(/Set SMTP_URL and MAIL_FROM to connect a mail server/)).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'dashboard');
});
