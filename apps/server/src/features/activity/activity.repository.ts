import { nowIso } from '../../clock';
import type { DbOrTrx } from '../../db/database';
import type { LoginEventsTable } from '../../db/schema';

export interface LoginEventInput {
  email: string;
  role: string;
  event: LoginEventsTable['event'];
  ip: string | null;
}

/** Sign-in activity is written by the server itself; no client can post an entry. */
export async function recordLoginEvent(db: DbOrTrx, input: LoginEventInput): Promise<void> {
  await db
    .insertInto('login_events')
    .values({ email: input.email, role: input.role, event: input.event, ip: input.ip, at: nowIso() })
    .execute();
}

/** Failed sign-ins ever recorded for an email that has no account. */
export async function countUnknownEmailFailures(db: DbOrTrx, email: string): Promise<number> {
  const row = await db
    .selectFrom('login_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('email', '=', email)
    .where('event', '=', 'failed_login')
    .where('role', '=', 'unknown')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
