import { SSO_FAILURES } from '@tradecraft/shared';
import { expect, test, type Page } from '@playwright/test';
import { startOidcProvider, type TestOidcProvider } from '../../test-support/oidc-provider';
import { expectAccessible } from '../support/a11y';
import { startExtraServer, type ExtraServer } from '../support/extra-server';

// A server of its own with single sign-on through a real OpenID provider (oidc-provider), both on 127.0.0.1.
const port = Number(process.env.E2E_PORT ?? 4817) + 100;
let provider: TestOidcProvider;
let server: ExtraServer;

test.beforeAll(async () => {
  provider = await startOidcProvider([`http://127.0.0.1:${port}/api/auth/oidc/callback`]);
  provider.accounts.set('ada', { email: 'ada@corp.example', givenName: 'Ada', familyName: 'Lovelace' });
  provider.accounts.set('grace', { email: 'grace@partner.example', givenName: 'Grace', familyName: 'Hopper' });
  server = await startExtraServer(port, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_DISPLAY_NAME: 'Corp ID',
    OIDC_AUTO_APPROVE_DOMAINS: 'corp.example',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

/** What a person does at the provider's (development) sign-in pages: a name, any password, then consent. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a trainee of an approved domain signs in through the identity provider and lands on the dashboard', async ({
  page,
}) => {
  await page.goto(`${server.baseURL}/login`);
  const button = page.getByRole('link', { name: 'Sign in with Corp ID' });
  await expect(button).toBeVisible();
  await expectAccessible(page);
  await button.click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await signInAtProvider(page, 'ada');
  await expect(page).toHaveURL(`${server.baseURL}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Progress Dashboard' })).toBeVisible();
  // Signed in as Ada: her initials on the profile link.
  await expect(page.getByRole('link', { name: 'My Profile' })).toContainText('AL');
});

test('someone outside the approved domains comes back to the sign-in page told to wait for approval', async ({
  page,
}) => {
  await page.goto(`${server.baseURL}/login`);
  await page.getByRole('link', { name: 'Sign in with Corp ID' }).click();
  await signInAtProvider(page, 'grace');
  await expect(page).toHaveURL(`${server.baseURL}/login?sso=pending`);
  await expect(page.getByRole('alert')).toHaveText(SSO_FAILURES.pending);
  await expectAccessible(page);
});
