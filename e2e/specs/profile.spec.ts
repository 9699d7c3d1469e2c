import { PROFILE_MESSAGES } from '@tradecraft/shared';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { seedUser, signInPage, type SeededUser } from '../support/api';
import { solidPng } from '../../test-support/png';

// One account for the file (each seeded account costs an admin sign-in); the tests run in order.
let user: SeededUser;
test.beforeAll(async () => {
  user = await seedUser({ firstName: 'Dana', lastName: 'Okafor' });
});

async function choosePicture(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload picture' }).click();
  await (await chooser).setFiles(file);
}

test('editing the profile: names required, then saved with the message for 3 seconds, everywhere at once', async ({
  page,
}) => {
  await signInPage(page, user);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My Profile', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('User Role')).toHaveValue('Student');
  await expect(page.getByLabel('User Role')).toHaveAttribute('readonly', '');
  await expectAccessible(page);

  await page.getByLabel('Last Name').fill('   ');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByText('Last name is required.')).toBeVisible();

  await page.getByLabel('First Name').fill('Grace');
  await page.getByLabel('Last Name').fill('Hopper');
  await page.getByLabel('Designation').fill('Threat Intel Lead');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  const saved = page.getByText(PROFILE_MESSAGES.saved);
  await saved.waitFor();
  const shownAt = Date.now();
  // The top bar's picture link shows the new initials straight away (the session was updated).
  await expect(page.getByRole('banner').getByRole('link', { name: 'My Profile' })).toHaveText('GH');
  await saved.waitFor({ state: 'hidden', timeout: 5000 });
  expect(Date.now() - shownAt).toBeGreaterThanOrEqual(2700);

  await page.reload();
  await expect(page.getByLabel('First Name')).toHaveValue('Grace');
  await expect(page.getByLabel('Designation')).toHaveValue('Threat Intel Lead');
});

test('the profile picture: a PNG is taken and shown round; SVG, over 2 MB and a disguised text file are refused', async ({
  page,
}) => {
  await signInPage(page, user);
  await page.goto('/profile');
  await expect(page.getByRole('button', { name: 'Upload picture' })).toBeVisible();

  await choosePicture(page, {
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await expect(page.getByRole('alert')).toHaveText(PROFILE_MESSAGES.photoType);

  await choosePicture(page, { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(3 * 1024 * 1024, 7) });
  await expect(page.getByRole('alert')).toHaveText(PROFILE_MESSAGES.photoTooLarge);

  // Passes the browser's quick check by its name and type; the server reads the bytes and refuses it.
  await choosePicture(page, {
    name: 'notes.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not a picture at all\n'),
  });
  await expect(page.getByRole('alert')).toHaveText(PROFILE_MESSAGES.photoType);

  await choosePicture(page, { name: 'me.png', mimeType: 'image/png', buffer: solidPng(300, 200, [0, 150, 200]) });
  await expect(page.getByText(PROFILE_MESSAGES.photoSaved)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  const picture = page.getByRole('img', { name: 'Your profile picture' });
  await expect(picture).toHaveAttribute('src', new RegExp(`^/api/users/${user.id}/photo\\?v=`));
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300);
  const radius = await picture.evaluate((img) => getComputedStyle(img.parentElement!).borderRadius);
  expect(Number.parseFloat(radius)).toBeGreaterThanOrEqual(72); // round: at least half of its 144 px
  // The top bar shows the picture too.
  await expect(page.getByRole('banner').getByRole('link', { name: 'My Profile' }).locator('img')).toHaveAttribute(
    'src',
    (await picture.getAttribute('src'))!,
  );
  await expectAccessible(page);
});
