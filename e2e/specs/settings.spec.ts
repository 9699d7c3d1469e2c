import { NEW_PASSWORD_RULE_MESSAGE, PASSWORDS_DO_NOT_MATCH_MESSAGE } from '@tradecraft/shared';
import { expect, request, test, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInPage, type SeededUser } from '../support/api';

let student: SeededUser;
test.beforeAll(async () => {
  student = await seedUser();
});

const scheme = (page: Page) => page.locator('html').getAttribute('data-mantine-color-scheme');
const cssVar = (page: Page, name: string) =>
  page.evaluate((variable) => getComputedStyle(document.documentElement).getPropertyValue(variable).trim(), name);
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('dark mode and the accent apply at once, survive a reload, and are set before the app runs', async ({ page }) => {
  await signInPage(page, student);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  expect(await scheme(page)).toBe('light');
  expect(await bodyBackground(page)).toBe('rgb(255, 255, 255)');
  expect(await cssVar(page, '--mantine-color-accent-5')).toBe('#00ffff');

  // By keyboard, as anyone can: focus the switch and press Space.
  await page.getByRole('switch', { name: 'Dark mode' }).focus();
  await page.keyboard.press('Space');
  await expect.poll(() => scheme(page)).toBe('dark');
  expect(await bodyBackground(page)).not.toBe('rgb(255, 255, 255)');

  const accent = page.getByRole('button', { name: /^Accent colour/ });
  await expect(accent).toHaveText('Cyan');
  await accent.click();
  await expect(accent).toHaveText('Teal');
  expect(await cssVar(page, '--mantine-color-accent-5')).toBe('#0dffc9');
  await expect(page.getByTestId('accent-swatch').locator('.mantine-ColorSwatch-colorOverlay')).toHaveCSS(
    'background-color',
    'rgb(13, 255, 201)',
  );

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeChecked();
  expect(await scheme(page)).toBe('dark');
  await expect(accent).toHaveText('Teal');
  expect(await cssVar(page, '--mantine-color-accent-5')).toBe('#0dffc9');
  expect(await page.evaluate(() => [localStorage.getItem('theme'), localStorage.getItem('accent')])).toEqual([
    'dark',
    'teal',
  ]);

  await accent.click();
  await expect(accent).toHaveText('Purple');
  expect(await cssVar(page, '--mantine-color-accent-5')).toBe('#bf00ff');
  await accent.click();
  await expect(accent).toHaveText('Cyan');

  // No flash: with the app's code blocked, the saved scheme is already on the page.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto('/settings');
  expect(await scheme(page)).toBe('dark');
  expect(await page.locator('html').getAttribute('data-accent')).toBe('cyan');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`${colorScheme} mode: the frame and its screens stay readable with every accent`, async ({ page }) => {
    // Up to eight axe runs over a Settings page that now also lists second factors and sessions.
    test.slow();
    await signInPage(page, student);
    await page.goto('/settings');
    for (const accentName of ['cyan', 'teal', 'purple']) {
      await page.evaluate(
        ([theme, accent]) => {
          localStorage.setItem('theme', theme!);
          localStorage.setItem('accent', accent!);
        },
        [colorScheme, accentName],
      );
      await page.goto('/settings');
      await expect(page.getByRole('button', { name: 'Reset Password' })).toBeVisible();
      expect(await scheme(page)).toBe(colorScheme);
      await expectAccessible(page);
    }
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('dialog', { name: 'Reset Password' })).toBeVisible();
    await expectAccessible(page);
    if (colorScheme === 'light') return; // the other screens are checked in light mode by their own specs
    for (const path of ['/profile', '/help', '/contact']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page);
    }
  });
}

test('Reset Password: every message, the server’s refusal in red, then success and the dialog closing after 1.5 s', async ({
  page,
}) => {
  // Last in the file: it changes the password of the file's account.
  const user = student;
  await signInPage(page, user);
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Password' });
  const current = dialog.getByLabel('Current Password');
  const next = dialog.getByLabel(/^New Password/);
  const confirm = dialog.getByLabel('Confirm New Password');
  const update = dialog.getByRole('button', { name: 'Update Password' });

  // Cancel closes, and the dialog opens empty again.
  await current.fill('something');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(current).toHaveValue('');

  await update.click();
  await expect(dialog.getByText('Current password is required.')).toBeVisible();
  await expect(dialog.getByText(NEW_PASSWORD_RULE_MESSAGE)).toBeVisible();

  const strength = dialog.locator('[data-strength]');
  for (const [password, colour] of [
    ['abc', 'red'],
    ['abcdefgh', 'red'],
    ['Abcdefgh', 'yellow'],
    ['Abcdefg1', 'blue'],
    ['Abcdef1!', 'green'],
  ] as const) {
    await next.fill(password);
    await expect(strength).toHaveAttribute('data-strength', colour);
  }

  await current.fill(user.password);
  await next.fill('Abcdefg1');
  await confirm.fill('Abcdefg1');
  await update.click();
  await expect(dialog.getByText(NEW_PASSWORD_RULE_MESSAGE)).toBeVisible();

  await next.fill('Fresh!Pass2026');
  await confirm.fill('Fresh!Pass2027');
  await update.click();
  await expect(dialog.getByText(PASSWORDS_DO_NOT_MATCH_MESSAGE)).toBeVisible();

  await current.fill('Wrong!Pass2026');
  await confirm.fill('Fresh!Pass2026');
  await update.click();
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toHaveText('The current password is incorrect.');
  const [red, green, blue] = (await refusal.evaluate((element) => getComputedStyle(element).color))
    .match(/\d+/g)!
    .map(Number);
  expect(red).toBeGreaterThan(green! + 60);
  expect(red).toBeGreaterThan(blue! + 60);

  await current.fill(user.password);
  await update.click();
  await dialog.getByText('Password updated successfully.').waitFor();
  const shownAt = Date.now();
  await dialog.waitFor({ state: 'hidden', timeout: 4000 });
  expect(Date.now() - shownAt).toBeGreaterThanOrEqual(1200);

  // The new password is the one that works now.
  const api = await request.newContext({ baseURL });
  expect(
    (await api.post('/api/auth/login', { data: { email: user.email, password: 'Fresh!Pass2026' } })).status(),
  ).toBe(200);
  await api.dispose();
});
