import { AUTH_MESSAGES, PASSWORD_RULE_MESSAGE } from '@tradecraft/shared';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config';
import { adminApi, seedUser, signInPage, STUDENT_PASSWORD, uniqueEmail } from '../support/api';

test('register, wait for approval, then sign in and land on the dashboard', async ({ page }) => {
  const email = uniqueEmail('register');
  await page.goto('/register');
  await page.getByLabel('First name').fill('Rosa');
  await page.getByLabel('Last name').fill('Franklin');
  await page.getByLabel('Designation').fill('CTI Analyst');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill('short');
  await expect(page.getByText(PASSWORD_RULE_MESSAGE)).toBeVisible();
  await page.getByRole('textbox', { name: 'Password' }).fill(STUDENT_PASSWORD);
  await expect(page.getByText(PASSWORD_RULE_MESSAGE)).toBeHidden();
  await page.getByRole('button', { name: 'Register' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(AUTH_MESSAGES.registrationSucceeded)).toBeVisible();

  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(STUDENT_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText(AUTH_MESSAGES.pending);

  const admin = await adminApi();
  const { users } = (await (await admin.get('/api/users/pending')).json()) as {
    users: { id: string; email: string }[];
  };
  const id = users.find((user) => user.email === email)!.id;
  expect((await admin.post(`/api/users/${id}/approve`, { data: { role: 'student' } })).ok()).toBe(true);
  await admin.dispose();

  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an admin signing in lands on the admin panel', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

test('registering with an email that has an account looks like any registration; its owner hears of it in the bell', async ({
  page,
}) => {
  const user = await seedUser();
  await page.goto('/register');
  await page.getByLabel('First name').fill('Again');
  await page.getByLabel('Last name').fill('Person');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(STUDENT_PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(AUTH_MESSAGES.registrationSucceeded)).toBeVisible();

  await signInPage(page, user);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /^Notifications, [1-9]\d* unread$/ }).click();
  await expect(page.getByRole('dialog')).toContainText(
    'Someone tried to register a new account with your email address.',
  );
});

test('three wrong passwords disable the account', async ({ page }) => {
  const user = await seedUser();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.getByRole('textbox', { name: 'Password' }).fill(`Wrong!pass${attempt}`);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      attempt < 3 ? AUTH_MESSAGES.invalidCredentials : AUTH_MESSAGES.disabled,
    );
  }
  await page.getByRole('textbox', { name: 'Password' }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText(AUTH_MESSAGES.disabled);
  await expect(page).toHaveURL(/\/login$/);
});

test('a student opening an admin screen lands on the dashboard', async ({ page }) => {
  const user = await seedUser();
  await signInPage(page, user);
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/dashboard$/);
});
