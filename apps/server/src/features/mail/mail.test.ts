import type { MailPreferences, MailStatusResponse } from '@tradecraft/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startMailDev, type TestMailServer } from '../../../../../test-support/maildev';
import { buildApp } from '../../app';
import { ConfigError, loadConfig } from '../../config';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { insertNotifications } from '../notifications/notifications.service';
import { renderNotice } from './mail.service';

// Mail through MailDev (test-support/maildev.ts), a real SMTP server started on 127.0.0.1 with its defaults.

const DAY = 24 * 60 * 60_000;
const later = (ms = DAY) => new Date(Date.now() + ms);
const FROM = 'Tradecraft <tradecraft@example.org>';

let mail: TestMailServer | undefined;
let t: TestApp | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
  await mail?.close();
  mail = undefined;
});

const mailEnv = (server: TestMailServer) => ({ SMTP_URL: server.smtpUrl, MAIL_FROM: FROM });

async function optIn(app: TestApp, cookie: string, emailNotices = true): Promise<MailPreferences> {
  const response = await app.request({ method: 'PUT', url: '/api/mail/preferences', body: { emailNotices }, cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as MailPreferences;
}

async function status(app: TestApp, cookie: string): Promise<MailStatusResponse> {
  const response = await app.request({ method: 'GET', url: '/api/mail/status', cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as MailStatusResponse;
}

/** A notification, inserted as every feature inserts one: in a transaction of its own. */
const notify = (app: TestApp, recipientIds: string[], message: string, link = '/assignments') =>
  app.db.transaction().execute((trx) => insertNotifications(trx, recipientIds, { kind: 'test', message, link }));

describe('notices by mail', () => {
  it('mails a notification to the admin who opted in (text, HTML, List-Unsubscribe, a link to PUBLIC_ORIGIN) and to nobody else', async () => {
    mail = await startMailDev();
    t = await createTestApp(mailEnv(mail));
    const reader = await t.userWithSession('admin', { first_name: 'Grace' });
    await t.userWithSession('admin'); // never opted in
    const undecided = await t.userWithSession('admin');
    await optIn(t, undecided.cookie, true);
    expect(await optIn(t, undecided.cookie, false)).toEqual({ configured: true, emailNotices: false });
    expect(await optIn(t, reader.cookie)).toEqual({ configured: true, emailNotices: true });

    // A registration notifies every admin (the bell) through the notifications feature.
    const registration = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        designation: 'Analyst',
        email: 'ada@example.com',
        password: 'Analyst!2026',
      },
    });
    expect(registration.statusCode, registration.body).toBe(201);
    // The sender is told of the new message; a pass of the test's own makes sure it has gone.
    await t.app.mailDelivery!.deliverDue();

    const received = await mail.waitForMessages(1);
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message!.to.map((to) => to.address)).toEqual([reader.user.email]);
    expect(message!.from[0]!.address).toBe('tradecraft@example.org');
    expect(message!.subject).toBe('Ada Lovelace (ada@example.com) registered and awaits approval.');
    expect(message!.text).toContain('Hello Grace,');
    expect(message!.text).toContain(`${ORIGIN}/admin/pending-users`);
    expect(message!.html).toContain(`<a href="${ORIGIN}/admin/pending-users">`);
    expect(message!.html).toContain('registered and awaits approval.');
    expect(await mail.source(message!.id)).toMatch(new RegExp(`^List-Unsubscribe: <${ORIGIN}/settings>`, 'mi'));

    expect(await t.app.mailDelivery!.deliverDue(later())).toBe(0);
    expect(await mail.messages()).toHaveLength(1);
  });

  it('escapes every value it puts in the HTML', () => {
    const notice = renderNotice(ORIGIN, '<Eve>', {
      kind: 'test',
      message: 'Graded: "<img src=x onerror=alert(1)>" & more',
      link: '/a?b="c"',
    });
    expect(notice.html).toContain('Hello &lt;Eve&gt;,');
    expect(notice.html).toContain('Graded: &quot;&lt;img src=x onerror=alert(1)&gt;&quot; &amp; more');
    expect(notice.html).toContain(`href="${ORIGIN}/a?b=&quot;c&quot;"`);
    expect(notice.html).not.toContain('<img');
    expect(notice.text).toContain('Graded: "<img src=x onerror=alert(1)>" & more');
  });

  it('keeps a notice while the mail server is down and sends it once, later, when it is back', async () => {
    mail = await startMailDev({ running: false });
    t = await createTestApp(mailEnv(mail));
    const admin = await t.userWithSession('admin');
    const trainee = await t.userWithSession('student');
    await optIn(t, trainee.cookie);

    await notify(t, [trainee.user.id], 'Your written answer was graded.');
    expect(await t.app.mailDelivery!.deliverDue()).toBe(0);
    const down = await status(t, admin.cookie);
    expect(down).toMatchObject({ enabled: true, backlog: 1, lastDeliveredAt: null });
    expect(down.lastError?.message).toMatch(/could not be reached/);
    // Backing off: the next pass, straight away, does not try again.
    expect(await t.app.mailDelivery!.deliverDue()).toBe(0);

    await mail.start();
    expect(await t.app.mailDelivery!.deliverDue(later())).toBe(1);
    expect(await t.app.mailDelivery!.deliverDue(later(2 * DAY))).toBe(0);
    const received = await mail.waitForMessages(1);
    expect(received.map((m) => m.to[0]!.address)).toEqual([trainee.user.email]);
    const up = await status(t, admin.cookie);
    expect(up.backlog).toBe(0);
    expect(up.lastDeliveredAt).not.toBeNull();
  });

  it('keeps the outbox through a restart: a new server on the same database sends what the old one could not', async () => {
    mail = await startMailDev({ running: false });
    t = await createTestApp(mailEnv(mail));
    const trainee = await t.userWithSession('student');
    await optIn(t, trainee.cookie);
    await notify(t, [trainee.user.id], 'An assignment is due tomorrow.');
    expect(await t.app.mailDelivery!.deliverDue()).toBe(0);
    await t.app.close();

    await mail.start();
    const restarted = await buildApp({ config: t.config, db: t.db, dialect: t.dialect });
    try {
      expect(await restarted.mailDelivery!.deliverDue(later())).toBe(1);
    } finally {
      await restarted.close();
    }
    const received = await mail.waitForMessages(1);
    expect(received.map((m) => m.subject)).toEqual(['An assignment is due tomorrow.']);
  });

  it('sends each message once when two servers deliver the same outbox at the same time', async () => {
    mail = await startMailDev();
    t = await createTestApp(mailEnv(mail));
    const other = await buildApp({ config: t.config, db: t.db, dialect: t.dialect });
    try {
      const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => t!.userWithSession('student')));
      for (const person of people) await optIn(t, person.cookie);
      await notify(
        t,
        people.map((person) => person.user.id),
        'A new assignment is waiting.',
      );
      await Promise.all([t.app.mailDelivery!.deliverDue(), other.mailDelivery!.deliverDue()]);
      await Promise.all([t.app.mailDelivery!.deliverDue(later()), other.mailDelivery!.deliverDue(later())]);
    } finally {
      await other.close();
    }
    const received = await mail.waitForMessages(6);
    expect(received).toHaveLength(6);
    expect(new Set(received.map((m) => m.to[0]!.address)).size).toBe(6);
  });

  it('queues nothing without SMTP_URL, and the preferences say mail is not configured', async () => {
    t = await createTestApp();
    const trainee = await t.userWithSession('student');
    expect(await optIn(t, trainee.cookie)).toEqual({ configured: false, emailNotices: true });
    await notify(t, [trainee.user.id], 'Nothing to mail.');
    expect(t.app.mailDelivery).toBeNull();
    const rows = await t.db.selectFrom('mail_outbox').selectAll().execute();
    expect(rows).toEqual([]);
    const admin = await t.userWithSession('admin');
    expect(await status(t, admin.cookie)).toEqual({
      enabled: false,
      server: null,
      backlog: 0,
      lastDeliveredAt: null,
      lastError: null,
    });
  });
});

describe('mail settings and access', () => {
  it('shows the mail status to admins only, and never the SMTP credentials', async () => {
    mail = await startMailDev();
    t = await createTestApp(mailEnv(mail));
    const trainee = await t.userWithSession('student');
    const admin = await t.userWithSession('admin');
    const refused = await t.request({ method: 'GET', url: '/api/mail/status', cookie: trainee.cookie });
    expect(refused.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/mail/status' })).statusCode).toBe(401);
    const shown = await status(t, admin.cookie);
    expect(shown.server).toBe(mail.smtpUrl.replace(/\/\/[^@]+@/, '//'));
    expect(JSON.stringify(shown)).not.toContain('a-password-for-tests');
  });

  it('keeps preferences per person, refuses a wrong body and changes nothing', async () => {
    t = await createTestApp();
    const one = await t.userWithSession('student');
    const two = await t.userWithSession('student');
    await optIn(t, one.cookie);
    const bad = await t.request({
      method: 'PUT',
      url: '/api/mail/preferences',
      body: { emailNotices: 'yes' },
      cookie: two.cookie,
    });
    expect(bad.statusCode).toBe(400);
    const read = async (cookie: string) =>
      (await t!.request({ method: 'GET', url: '/api/mail/preferences', cookie })).json() as MailPreferences;
    expect(await read(one.cookie)).toEqual({ configured: false, emailNotices: true });
    expect(await read(two.cookie)).toEqual({ configured: false, emailNotices: false });
    expect((await t.request({ method: 'GET', url: '/api/mail/preferences' })).statusCode).toBe(401);
  });

  it('refuses to start with SMTP_URL but no PUBLIC_ORIGIN or no MAIL_FROM, or an SMTP_URL of another kind', () => {
    const smtp = 'smtp://user:pass@mail.example.org:587';
    expect(() => loadConfig({ SMTP_URL: smtp, MAIL_FROM: FROM })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_URL: smtp, MAIL_FROM: FROM })).toThrow(/PUBLIC_ORIGIN: is required when SMTP_URL/);
    expect(() => loadConfig({ SMTP_URL: smtp, PUBLIC_ORIGIN: ORIGIN })).toThrow(/MAIL_FROM: is required when SMTP_URL/);
    expect(() => loadConfig({ SMTP_URL: 'https://mail.example.org', MAIL_FROM: FROM, PUBLIC_ORIGIN: ORIGIN })).toThrow(
      /SMTP_URL/,
    );
    expect(() => loadConfig({ SMTP_URL: smtp, MAIL_FROM: 'nobody', PUBLIC_ORIGIN: ORIGIN })).toThrow(/MAIL_FROM/);
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.org', MAIL_FROM: FROM, PUBLIC_ORIGIN: ORIGIN }).mail).toEqual({
      smtpUrl: 'smtps://mail.example.org',
      from: FROM,
    });
    expect(loadConfig({}).mail).toBeNull();
  });
});
