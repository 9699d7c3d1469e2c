// A real SMTP server for the mail tests: MailDev (the npm package), in this process, with its default settings
// except where it listens (127.0.0.1, on free ports, SMTP and its web API alike) and where it keeps messages (a
// folder of its own, so runs never see each other's mail). Tests read what arrived through MailDev's REST API.
// It can be stopped and started again on the same ports, as a mail server that goes down and comes back.
import fs from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MailDev } from 'maildev';

export interface ReceivedMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  from: { address: string; name: string }[];
  to: { address: string; name: string }[];
}

export interface TestMailServer {
  /** SMTP_URL for the product, with credentials (MailDev accepts any when it is not told to check them). */
  smtpUrl: string;
  /** MailDev's web API. */
  apiUrl: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it for good and deletes its messages. */
  close(): Promise<void>;
  /** Every message received so far, oldest first. */
  messages(): Promise<ReceivedMail[]>;
  /** Messages received so far, waiting until there are at least `count` (MailDev stores a message after it answers). */
  waitForMessages(count: number): Promise<ReceivedMail[]>;
  /** A message as it travelled (headers and MIME parts). */
  source(id: string): Promise<string>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Reserves ports for a MailDev and starts it unless `running` is false (a mail server that is down). */
export async function startMailDev({ running = true }: { running?: boolean } = {}): Promise<TestMailServer> {
  const smtp = await freePort();
  const web = await freePort();
  const mailDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-maildev-'));
  let maildev: MailDev | undefined;
  const apiUrl = `http://127.0.0.1:${web}`;
  const messages = async () => {
    const response = await fetch(`${apiUrl}/api/email`);
    if (!response.ok) throw new Error(`MailDev answered ${response.status}`);
    return (await response.json()) as ReceivedMail[];
  };
  const mailServer: TestMailServer = {
    smtpUrl: `smtp://tradecraft:a-password-for-tests@127.0.0.1:${smtp}`,
    apiUrl,
    async start() {
      maildev = new MailDev({ smtp, web, ip: '127.0.0.1', webIp: '127.0.0.1', mailDirectory, silent: true });
      await maildev.start();
    },
    async stop() {
      await maildev?.stop();
      maildev = undefined;
    },
    async close() {
      await mailServer.stop();
      fs.rmSync(mailDirectory, { recursive: true, force: true });
    },
    messages,
    async waitForMessages(count) {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const received = await messages();
        if (received.length >= count) return received;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return messages();
    },
    async source(id) {
      const response = await fetch(`${apiUrl}/api/email/${id}/source`);
      return response.text();
    },
  };
  if (running) await mailServer.start();
  return mailServer;
}
