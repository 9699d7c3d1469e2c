import { SSO_FAILURES, SSO_LINK_MESSAGES } from '@tradecraft/shared';
import { expect, test, type Page } from '@playwright/test';
import { startOidcProvider, type TestOidcProvider } from '../../test-support/oidc-provider';
import { expectAccessible } from '../support/a11y';
import { startExtraServer, type ExtraServer } from '../support/extra-server';

// A server of its own with single sign-on through a real OpenID provider (oidc-provider, with its defaults), both
// on 127.0.0.1. Lin has an account here already (the admin the server starts with), so her first single sign-on
// asks for that account's password.
const port = Number(process.env.E2E_PORT ?? 4817) + 100;
const LIN = { email: 'lin@corp.example', password: 'Lin-Admin!pass1' };
let provider: TestOidcProvider;
let server: ExtraServer;

test.beforeAll(async () => {
  provider = await startOidcProvider([`http://127.0.0.1:${port}/api/auth/oidc/callback`]);
  const verified = { emailVerified: true };
  provider.accounts.set('ada', { ...verified, email: 'ada@corp.example', givenName: 'Ada', familyName: 'Lovelace' });
  provider.accounts.set('grace', {
    ...verified,
    email: 'grace@partner.example',
    givenName: 'Grace',
    familyName: 'Hopper',
  });
  provider.accounts.set('lin', { ...verified, email: LIN.email, givenName: 'Lin', familyName: 'Lead' });
  server = await startExtraServer(port, {
    ADMIN_EMAIL: LIN.email,
    ADMIN_PASSWORD: LIN.password,
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

test('someone with an account here links it once with its password, and is signed in by the provider from then on', async ({
  page,
}) => {
  test.setTimeout(90_000); // two trips through the provider's pages
  await page.goto(`${server.baseURL}/login`);
  await page.getByRole('link', { name: 'Sign in with Corp ID' }).click();
  await signInAtProvider(page, 'lin');
  await expect(page).toHaveURL(`${server.baseURL}/link-account`);
  await expect(page.getByRole('heading', { name: 'Link your account' })).toBeVisible();
  await expect(page.getByText(`You signed in with Corp ID as ${LIN.email}`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Account' })).toHaveValue(LIN.email);
  await expectAccessible(page);

  await page.getByRole('textbox', { name: 'Password' }).fill('Not-her-password-1');
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(SSO_LINK_MESSAGES.wrongPassword);
  await expectAccessible(page);

  await page.getByRole('textbox', { name: 'Password' }).fill(LIN.password);
  await page.getByRole('button', { name: 'Link and sign in' }).click();
  await expect(page).toHaveURL(`${server.baseURL}/admin`);
  await expect(page.getByRole('link', { name: 'My Profile' })).toBeVisible();

  // Signed out everywhere (the provider too): the next single sign-on needs no password here.
  await page.context().clearCookies();
  await page.goto(`${server.baseURL}/login`);
  await page.getByRole('link', { name: 'Sign in with Corp ID' }).click();
  await signInAtProvider(page, 'lin');
  await expect(page).toHaveURL(`${server.baseURL}/admin`);
});

test('the link page without a waiting request says so and leads back to sign in, in light and dark', async ({
  page,
}) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.addInitScript((value) => localStorage.setItem('theme', value), scheme);
    await page.goto(`${server.baseURL}/link-account`);
    await expect(page.getByRole('alert')).toHaveText(SSO_LINK_MESSAGES.expired);
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await expect(page).toHaveURL(`${server.baseURL}/login`);
  }
});
