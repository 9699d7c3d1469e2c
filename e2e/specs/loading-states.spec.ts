import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInAsAdmin, signInPage } from '../support/api';

/**
 * Each page's placeholder while its data loads, held open until axe has checked it: it is announced as one busy
 * status with its name, and is accessible like the page it stands for. (A slow network shows it for seconds;
 * a fast one for a moment, when an accessibility check may still catch it.)
 */
const placeholders: {
  path: string;
  as: 'trainee' | 'admin';
  api: RegExp;
  name: string;
  loaded: (page: Page) => Locator;
}[] = [
  {
    path: '/scenarios',
    as: 'trainee',
    api: /\/api\/sim\/list/,
    name: 'Loading scenarios',
    loaded: (page) => page.getByRole('heading', { level: 2, name: 'Tutorial: your first case' }),
  },
  {
    path: '/dashboard',
    as: 'trainee',
    api: /\/api\/progress\/user\//,
    name: 'Loading your progress',
    loaded: (page) => page.getByRole('heading', { level: 2, name: 'Recommended next' }),
  },
  {
    path: '/profile',
    as: 'trainee',
    api: /\/api\/profile$/,
    name: 'Loading your profile',
    loaded: (page) => page.getByRole('form', { name: 'Profile details' }),
  },
  {
    path: '/contact',
    as: 'trainee',
    api: /\/api\/meta$/,
    name: 'Loading the repository address',
    loaded: (page) => page.getByRole('link', { name: /^https:\/\// }),
  },
  {
    path: '/admin/scenario-config',
    as: 'admin',
    api: /\/api\/sim\/list/,
    name: 'Loading scenarios',
    loaded: (page) => page.getByRole('table', { name: 'Scenarios' }),
  },
  {
    path: '/admin/difficulty',
    as: 'admin',
    api: /\/api\/settings\/difficulty$/,
    name: 'Loading the difficulty',
    loaded: (page) => page.getByRole('slider'),
  },
];

/** Holds the page's requests to `api` until the returned function is called. */
async function holdRequests(page: Page, api: RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(api, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

for (const { path, as, api, name, loaded } of placeholders) {
  test(`${path}: the placeholder while its data loads is a named busy status, accessible`, async ({ page }) => {
    if (as === 'admin') await signInAsAdmin(page);
    else await signInPage(page, await seedUser());
    const release = await holdRequests(page, api);
    await page.goto(path);

    const placeholder = page.getByRole('status', { name });
    await expect(placeholder).toBeVisible();
    await expect(placeholder).toHaveAttribute('aria-busy', 'true');
    await expectAccessible(page);

    release();
    await expect(placeholder).toHaveCount(0);
    await expect(loaded(page).first()).toBeVisible();
  });
}

test('a searched list is dimmed and busy from the first keystroke until its answer, then shows only the match', async ({
  page,
}) => {
  const user = await seedUser({ firstName: 'Bettina', lastName: 'Busy' });
  await signInAsAdmin(page);
  await page.clock.install();
  await page.goto('/admin/users');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(table.locator('tbody tr').filter({ hasNotText: user.email }).first()).toBeVisible();
  const searches: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/users\?.*search=/.test(request.url())) searches.push(request.url());
  });
  const release = await holdRequests(page, /\/api\/users\?.*search=/);

  // With the page's clock stopped, the search waits for the typing pause: the rows still shown are the
  // unsearched list's, dimmed and announced as busy before anything is sent.
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.getByLabel('Search').fill(user.email);
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(table).toHaveCSS('opacity', '0.6');
  expect(searches).toEqual([]);

  // The pause passes and the search is sent; the list stays busy until its answer.
  await page.clock.runFor(400);
  await expect.poll(() => searches.length).toBe(1);
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await page.clock.resume();
  release();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(table).toHaveCSS('opacity', '1');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText(user.email);
  await expectAccessible(page);
});
