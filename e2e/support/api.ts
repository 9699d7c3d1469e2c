import { randomBytes } from 'node:crypto';
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { baseURL, E2E_ADMIN } from '../playwright.config';

export const STUDENT_PASSWORD = 'Trainee!2026';

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
let adminState: Promise<StorageState> | undefined;

async function signInAdminOnce(): Promise<StorageState> {
  const api = await playwrightRequest.newContext({ baseURL });
  const response = await api.post('/api/auth/login', { data: E2E_ADMIN });
  if (!response.ok()) throw new Error(`admin sign-in failed: ${response.status()} ${await response.text()}`);
  const state = await api.storageState();
  await api.dispose();
  return state;
}

/**
 * An API client signed in as the e2e admin (seeding goes through the API, as a person's actions would). The
 * admin signs in once per worker; each call gets its own context on that session.
 */
export async function adminApi(): Promise<APIRequestContext> {
  adminState ??= signInAdminOnce();
  return playwrightRequest.newContext({ baseURL, storageState: await adminState });
}

export interface SeededUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export const uniqueEmail = (prefix = 'trainee') => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;

/** Registers an account through the API and, unless told otherwise, has the admin approve it. */
export async function seedUser(
  options: { role?: 'student' | 'admin' | 'pending'; firstName?: string; lastName?: string; email?: string } = {},
): Promise<SeededUser> {
  const user = {
    firstName: options.firstName ?? 'Dana',
    lastName: options.lastName ?? `Analyst ${randomBytes(2).toString('hex')}`,
    designation: 'SOC Analyst',
    email: options.email ?? uniqueEmail(),
    password: STUDENT_PASSWORD,
  };
  const anonymous = await playwrightRequest.newContext({ baseURL });
  const registered = await anonymous.post('/api/auth/register', { data: user });
  if (registered.status() !== 201) throw new Error(`registration failed: ${await registered.text()}`);
  await anonymous.dispose();

  const admin = await adminApi();
  const pending = (await (await admin.get('/api/users/pending')).json()) as { users: { id: string; email: string }[] };
  const id = pending.users.find((candidate) => candidate.email === user.email)!.id;
  if ((options.role ?? 'student') !== 'pending') {
    const approved = await admin.post(`/api/users/${id}/approve`, { data: { role: options.role ?? 'student' } });
    if (!approved.ok()) throw new Error(`approval failed: ${await approved.text()}`);
  }
  await admin.dispose();
  return { id, email: user.email, password: user.password, firstName: user.firstName, lastName: user.lastName };
}

/** Signs the page's browser context in through the API (the cookie lands in the page's context). */
export async function signInPage(page: Page, user: { email: string; password: string }): Promise<void> {
  const response = await page.request.post('/api/auth/login', { data: { email: user.email, password: user.password } });
  if (!response.ok()) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
}

export const signInAsAdmin = (page: Page) => signInPage(page, E2E_ADMIN);
