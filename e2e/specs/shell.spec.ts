import { AUTH_MESSAGES } from '@tradecraft/shared';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInAsAdmin, signInPage, type SeededUser } from '../support/api';

let student: SeededUser;
test.beforeAll(async () => {
  student = await seedUser();
});

const sidebar = (page: Page) => page.locator('#main-navigation');

test.describe('at 1280 px wide', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the sidebar is open and marks the current page; trainees see no admin links', async ({ page }) => {
    await signInPage(page, student);
    await page.goto('/scenarios');
    await expect(sidebar(page)).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Scenarios' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Manage Users' })).toHaveCount(0);

    await page.getByRole('banner').getByRole('link', { name: 'Help & FAQ' }).click();
    await expect(page).toHaveURL(/\/help$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Help & FAQ' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('the top bar clock ticks every second', async ({ page }) => {
    await signInPage(page, student);
    await page.goto('/help');
    const clock = page.getByTestId('live-clock');
    // The clock starts just after the page's first paint.
    await expect(clock).toHaveText(/\d{1,2}:\d{2}:\d{2}/);
    const first = await clock.textContent();
    await expect(clock).not.toHaveText(first!, { timeout: 2500 });
  });

  test('the skip link takes keyboard users past the navigation to the page landmarks', async ({ page }) => {
    await signInPage(page, student);
    await page.goto('/help');
    await expect(page.getByRole('heading', { name: 'Help & FAQ', level: 1 })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  });

  test('logout asks first, says so, and reaches the sign-in page after 1.5 seconds', async ({ page }) => {
    await signInPage(page, student);
    await page.goto('/help');
    const open = () => page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();

    await open();
    const dialog = page.getByRole('dialog', { name: 'Logout' });
    await expect(dialog).toContainText(AUTH_MESSAGES.logoutQuestion);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/help$/);

    await open();
    // The page's 1.5-second timer starts after this click, so the time from the click to the sign-in
    // page can never be shorter; timing from when the notice was seen would subtract polling delay.
    const clickedAt = Date.now();
    await dialog.getByRole('button', { name: 'Logout' }).click();
    await page.getByText(AUTH_MESSAGES.loggedOut).waitFor();
    await expect(page).toHaveURL(/\/help$/); // the notice shows on the page the user was on
    await page.waitForURL(/\/login$/, { timeout: 4000 });
    const waited = Date.now() - clickedAt;
    expect(waited).toBeGreaterThanOrEqual(1500);
    expect(waited).toBeLessThan(3500);

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/); // the session really ended
  });
});

test.describe('at 375 px wide', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the sidebar starts closed, the burger opens it, and choosing a page closes it', async ({ page }) => {
    await signInPage(page, student);
    await page.goto('/help');
    await expect(page.getByRole('heading', { name: 'Help & FAQ', level: 1 })).toBeVisible();
    await expect(sidebar(page)).toBeHidden();
    const burger = page.getByRole('button', { name: 'Open navigation' });
    await expect(burger).toHaveAttribute('aria-expanded', 'false');

    await burger.click();
    await expect(sidebar(page)).toBeInViewport();
    await sidebar(page).getByRole('link', { name: 'Scenarios' }).click();
    await expect(page).toHaveURL(/\/scenarios$/);
    await expect(sidebar(page)).toBeHidden();
    await expectAccessible(page);
  });
});

test('admins: the Admin Panel group in the sidebar, and the under-construction page with its drawing', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/underconstruction');
  await expect(page.getByRole('heading', { name: 'Admin Panel', level: 1 })).toBeVisible();
  await expect(page.getByRole('img', { name: /under construction/i })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const adminGroup = nav.getByRole('group', { name: 'Admin Panel' });
  for (const [name, href] of [
    ['Manage Users', '/admin/users'],
    ['Pending Approvals', '/admin/pending-users'],
    ['User Monitoring', '/admin/monitoring'],
    ['Audit Log', '/admin/audit-log'],
    ['Training Progress', '/admin/training-progress'],
    ['Scenario Configurator', '/admin/scenario-config'],
    ['Difficulty Adjuster', '/admin/difficulty'],
  ]) {
    await expect(adminGroup.getByRole('link', { name })).toHaveAttribute('href', href!);
  }
  await expect(nav.getByRole('link', { name: 'Upload Scenario' })).toHaveAttribute('href', '/upload');
  await expectAccessible(page);

  await signInPage(page, student);
  await page.goto('/underconstruction');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the sign-in, registration and 404 pages pass the accessibility check', async ({ page }) => {
  for (const [path, heading] of [
    ['/login', 'Sign in'],
    ['/register', 'Create your account'],
    ['/no-such-page', 'Page Not Found'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expectAccessible(page);
  }
});
