import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { signInAsAdmin } from '../support/api';

// STIX 2.1 in (docs/interoperability.md): an admin imports the OASIS Poison Ivy report on Upload Scenario, reads
// what the import made and what it could not carry, and opens the draft in the editor. A file that is not a
// bundle is refused with its problems.
const POISON_IVY = fileURLToPath(
  new URL('../../apps/server/src/features/interop/fixtures/poisonivy.json', import.meta.url),
);
const SHOTS = process.env.SHOTS_DIR;

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const size = page.viewportSize()!;
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((value) => document.documentElement.setAttribute('data-mantine-color-scheme', value), scheme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-${scheme}-${width}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
  await page.setViewportSize(size);
}

async function chooseBundle(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'STIX bundle' }).click();
  await (await chooser).setFiles(file);
}

test('an admin imports a STIX report as a draft, reads what was made, and opens it in the editor', async ({ page }) => {
  test.slow();
  await signInAsAdmin(page);
  await page.goto('/upload');
  const card = page.getByRole('region', { name: 'Import from STIX 2.1' });

  await chooseBundle(page, { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('not json') });
  await card.getByRole('button', { name: 'Import as a draft' }).click();
  await expect(card.getByRole('alert')).toContainText('The file is not JSON: a STIX 2.1 bundle is a JSON object.');

  await chooseBundle(page, POISON_IVY);
  await card.getByRole('button', { name: 'Import as a draft' }).click();
  const result = card.getByRole('status');
  await expect(result).toContainText('made from the bundle');
  await expect(result).toContainText('From a threat report:');
  // OASIS's report names CAPEC-163 only: the draft asks for the ATT&CK technique ATT&CK lists for it.
  await expect(result.getByRole('list', { name: 'What the draft holds' })).toContainText(
    '1 step asking for an ATT&CK technique',
  );
  await expect(result.getByRole('list', { name: 'Before you publish' }).getByRole('listitem').first()).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'stix-import');

  await result.getByRole('link', { name: 'Open the draft in the editor' }).click();
  await expect(page).toHaveURL(/\/admin\/scenarios\/[a-z0-9-]+\/edit$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Edit: / })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText(/Draft v1/)).toBeVisible();
});

test('an Attack Flow Builder file is refused with a hint to export it as STIX', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/upload');
  const card = page.getByRole('region', { name: 'Import from STIX 2.1' });
  await chooseBundle(page, {
    name: 'intrusion.afb',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(JSON.stringify({ schema: {}, layout: {}, camera: {}, objects: [] })),
  });
  await card.getByRole('button', { name: 'Import as a draft' }).click();
  await expect(card.getByRole('alert')).toContainText('export it as STIX (File, Publish Attack Flow)');
  await expectAccessible(page);
});
