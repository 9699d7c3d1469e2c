import { randomBytes, randomUUID } from 'node:crypto';
import { isoFromNow, nowIso } from '../../apps/server/src/clock';
import type { Db } from '../../apps/server/src/db/database';
import type { Insertable } from 'kysely';
import type { NewUser, SessionsTable } from '../../apps/server/src/db/schema';
import { hashPassword } from '../../apps/server/src/features/auth/passwords';
import { hashToken, SESSION_ABSOLUTE_MS, SESSION_COOKIE } from '../../apps/server/src/plugins/sessions.repository';
import { loadBuiltinScenarios } from '../../apps/server/src/features/scenarios/scenarios.loader';
import { checkScenario } from '@tradecraft/shared';
import { everyKindScenario } from '@tradecraft/shared/testing';

export interface Trainee {
  index: number;
  userId: string;
  email: string;
  /** `tc_session=<token>`, ready for a Cookie header. */
  cookie: string;
  /** The scenario this trainee plays, again and again. */
  scenarioId: string;
}

export const TRAINEE_PASSWORD = 'Trainee!Bench1';
const BATCH = 200;

/** A scenario with a step of every kind, played by every fourth trainee so each kind's answer path is in the mix. */
const EVERY_KIND_ID = 'bench-every-kind';

async function ensureEveryKindScenario(db: Db): Promise<void> {
  const checked = checkScenario({ ...everyKindScenario(), id: EVERY_KIND_ID });
  if (!checked.ok) throw new Error('the every-kind scenario fails the checker');
  const json = JSON.stringify(checked.scenario);
  const now = nowIso();
  await db
    .insertInto('scenarios')
    .values({
      id: EVERY_KIND_ID,
      name: checked.scenario.name,
      type: checked.scenario.type,
      difficulty: checked.scenario.difficulty,
      description: checked.scenario.description,
      definition: json,
      step_count: checked.scenario.steps.length,
      origin: 'upload',
      content_hash: EVERY_KIND_ID,
      source_file_id: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      current_version_id: `${EVERY_KIND_ID}@v1`,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  // Its version 1, published (runs pin it), as migration 2026_11_25_0100 makes one.
  await db
    .insertInto('scenario_versions')
    .values({
      id: `${EVERY_KIND_ID}@v1`,
      scenario_id: EVERY_KIND_ID,
      number: 1,
      state: 'published',
      revision: 1,
      definition: json,
      based_on: null,
      summary: 'First version',
      source_hash: null,
      created_by: null,
      created_at: now,
      saved_by: null,
      saved_at: now,
      published_by: null,
      published_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Trainees straight in the database, each signed in: a student account plus a session row made exactly as
 * plugins/sessions.repository.ts makes one (a random 256-bit token; only its SHA-256 is stored). The sign-in API
 * would do the same but allows 120 sign-ins a minute per address, too few to seat 500 trainees quickly.
 */
export async function createTrainees(db: Db, count: number, label: string): Promise<Trainee[]> {
  await loadBuiltinScenarios(db, undefined, { warn: () => undefined });
  await ensureEveryKindScenario(db);
  const scenarios = await db
    .selectFrom('scenarios')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('id', '!=', EVERY_KIND_ID)
    .orderBy('id')
    .execute();
  if (scenarios.length === 0) throw new Error('no scenarios to play: the built-in library did not load');
  const passwordHash = await hashPassword(TRAINEE_PASSWORD);
  const now = nowIso();
  const expiresAt = isoFromNow(SESSION_ABSOLUTE_MS);
  const trainees: Trainee[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const users: NewUser[] = [];
    const sessions: Insertable<SessionsTable>[] = [];
    for (let index = start; index < Math.min(count, start + BATCH); index += 1) {
      const id = randomUUID();
      const email = `trainee-${label}-${index}@bench.test`;
      const token = randomBytes(32).toString('base64url');
      users.push({
        id,
        email,
        password_hash: passwordHash,
        first_name: 'Bench',
        last_name: `Trainee ${index}`,
        designation: 'SOC Analyst',
        role: 'student',
        disabled: 0,
        failed_attempts: 0,
        photo_file_id: null,
        created_at: now,
        updated_at: now,
      });
      sessions.push({
        id: hashToken(token),
        user_id: id,
        created_at: now,
        last_seen_at: now,
        expires_at: expiresAt,
        ip: '127.0.0.1',
        user_agent: 'bench',
      });
      trainees.push({
        index,
        userId: id,
        email,
        cookie: `${SESSION_COOKIE}=${token}`,
        scenarioId: index % 4 === 0 ? EVERY_KIND_ID : scenarios[index % scenarios.length]!.id,
      });
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(users).execute();
      await trx.insertInto('sessions').values(sessions).execute();
    });
  }
  return trainees;
}
