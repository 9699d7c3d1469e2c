import type {
  DashboardStats,
  ManagedUser,
  PendingUser,
  UserStats,
  UsersPage,
  usersListQuerySchema,
} from '@tradecraft/shared';
import { PostgresAdapter, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { z } from 'zod';
import { nowIso } from '../../clock';
import type { DbOrTrx, Trx } from '../../db/database';
import type { Database, NewUser, User, UserUpdate } from '../../db/schema';
import { containsText } from '../../db/text-search';

export function findUserByEmail(db: DbOrTrx, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export function findUserById(db: DbOrTrx, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Gives a pending account its role; undefined when the account is no longer pending. */
export function approvePendingUser(
  trx: Trx,
  id: string,
  role: User['role'],
  updatedAt: string,
): Promise<User | undefined> {
  return trx
    .updateTable('users')
    .set({ role, updated_at: updatedAt })
    .where('id', '=', id)
    .where('role', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** Deletes a pending registration; false when the account is no longer pending. */
export async function deletePendingUser(trx: Trx, id: string): Promise<boolean> {
  const deleted = await trx.deleteFrom('users').where('id', '=', id).where('role', '=', 'pending').executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

export async function insertUser(db: DbOrTrx, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function listAdminIds(db: DbOrTrx): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('role', '=', 'admin').execute();
  return rows.map((row) => row.id);
}

/** Everyone awaiting approval, oldest first (the first to register is the first to be answered). */
export async function listPendingUsers(db: DbOrTrx): Promise<PendingUser[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'designation', 'created_at'])
    .where('role', '=', 'pending')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    designation: row.designation,
    registeredAt: row.created_at,
  }));
}

type UsersListFilters = Pick<z.output<typeof usersListQuerySchema>, 'search' | 'role' | 'status'>;

/** Disabled by an admin, or locked after failed sign-ins (Manage Users shows both as not active). Never null. */
const isBlocked = (eb: ExpressionBuilder<Database, 'users'>, now: string) =>
  eb.or([eb('disabled', '=', 1), eb(eb.fn.coalesce('locked_until', sql.lit('')), '>', now)]);

/** The Manage Users filters; pending registrations only appear when role=pending asks for them. */
function filteredUsers(db: DbOrTrx, filters: UsersListFilters) {
  const search = filters.search?.trim();
  return db
    .selectFrom('users')
    .$if(filters.role === undefined, (qb) => qb.where('role', '!=', 'pending'))
    .$if(filters.role !== undefined, (qb) => qb.where('role', '=', filters.role!))
    .$if(filters.status === 'disabled', (qb) => qb.where((eb) => isBlocked(eb, nowIso())))
    .$if(filters.status === 'active', (qb) => qb.where((eb) => eb.not(isBlocked(eb, nowIso()))))
    .$if(Boolean(search), (qb) =>
      qb.where((eb) =>
        eb.or([
          containsText(
            db,
            'users.full_name',
            eb.ref('users.id'),
            sql`${eb.ref('first_name')} || ' ' || ${eb.ref('last_name')}`,
            search!,
          ),
          containsText(db, 'users.email', eb.ref('users.id'), eb.ref('email'), search!),
          containsText(db, 'users.designation', eb.ref('users.id'), eb.ref('designation'), search!),
        ]),
      ),
    );
}

type ManagedUserRow = Pick<
  User,
  'id' | 'first_name' | 'last_name' | 'email' | 'designation' | 'role' | 'disabled' | 'locked_until' | 'created_at'
>;

/** The lock's end while it lasts, else null (a lock whose time is up is lifted at the next sign-in). */
export function activeLockEnd(user: Pick<User, 'locked_until'>, now = Date.now()): string | null {
  return user.locked_until !== null && Date.parse(user.locked_until) > now ? user.locked_until : null;
}

export function toManagedUser(user: ManagedUserRow): ManagedUser {
  const lockedUntil = activeLockEnd(user);
  return {
    id: user.id,
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    designation: user.designation,
    role: user.role,
    disabled: user.disabled === 1 || lockedUntil !== null,
    lockedUntil,
    createdAt: user.created_at,
  };
}

/** One page of Manage Users, filtered, sorted and paged in SQL. */
export async function listManagedUsers(db: DbOrTrx, query: z.output<typeof usersListQuerySchema>): Promise<UsersPage> {
  const { sort, dir, page, pageSize } = query;
  const columns = [
    'id',
    'first_name',
    'last_name',
    'email',
    'designation',
    'role',
    'disabled',
    'locked_until',
    'created_at',
  ] as const;
  let rowsQuery = filteredUsers(db, query).select(columns);
  // People sort names the way they read them, not by byte value, so text columns compare lower-cased.
  if (sort === 'name') {
    rowsQuery = rowsQuery.orderBy(sql`lower(first_name)`, dir).orderBy(sql`lower(last_name)`, dir);
  } else if (sort === 'designation') {
    rowsQuery = rowsQuery.orderBy(sql`lower(designation)`, dir);
  } else if (sort === 'status') {
    rowsQuery = rowsQuery.orderBy('disabled', dir).orderBy(sql`lower(first_name)`, 'asc');
  } else {
    rowsQuery = rowsQuery.orderBy(sort, dir);
  }
  const [rows, count] = await Promise.all([
    rowsQuery
      .orderBy('id', dir)
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    filteredUsers(db, query)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toManagedUser), total: Number(count.count), page, pageSize };
}

const countWhen = (condition: Expression<SqlBool>) => sql<number>`sum(case when ${condition} then 1 else 0 end)`;

/** The Manage Users cards, in one pass over the table. */
export async function userStats(db: DbOrTrx): Promise<UserStats> {
  const now = nowIso();
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      countWhen(eb('role', '!=', 'pending')).as('total'),
      countWhen(eb.and([eb('role', '!=', 'pending'), eb.not(isBlocked(eb, now))])).as('active'),
      countWhen(eb.and([eb('role', '!=', 'pending'), isBlocked(eb, now)])).as('disabled'),
      countWhen(eb('role', '=', 'pending')).as('pending'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total ?? 0),
    active: Number(row.active ?? 0),
    disabled: Number(row.disabled ?? 0),
    pending: Number(row.pending ?? 0),
  };
}

/**
 * The Admin Dashboard's counts, in one round trip. The account counts are kept by triggers (row_counts,
 * migration 2026_11_26_0200); the week's runs and the day's failed sign-ins are ranges of an index.
 */
export async function dashboardCounts(
  db: DbOrTrx,
  since: { weekStart: string; dayStart: string },
): Promise<DashboardStats> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('row_counts').select('value').where('name', '=', 'users:pending').as('pending'),
      eb.selectFrom('row_counts').select('value').where('name', '=', 'users:active').as('active_users'),
      eb
        .selectFrom('runs')
        .select(eb.fn.countAll<number>().as('c'))
        .where('started_at', '>=', since.weekStart)
        .as('runs_this_week'),
      eb
        .selectFrom('login_events')
        .select(eb.fn.countAll<number>().as('c'))
        .where('event', '=', 'failed_login')
        .where('at', '>=', since.dayStart)
        .as('failed_today'),
    ])
    .executeTakeFirstOrThrow();
  return {
    pending: Number(row.pending ?? 0),
    activeUsers: Number(row.active_users ?? 0),
    runsThisWeek: Number(row.runs_this_week ?? 0),
    failedSignInsToday: Number(row.failed_today ?? 0),
  };
}

const isPostgres = (db: DbOrTrx) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Ids of every enabled admin, locked until the transaction ends (PostgreSQL). Taken before the edited row,
 * always in id order, so two concurrent demotions queue up instead of both seeing the other admin. SQLite
 * runs one write transaction at a time, so there the plain read is already safe.
 */
export async function lockActiveAdminIds(trx: Trx): Promise<string[]> {
  const rows = await trx
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .orderBy('id')
    .$if(isPostgres(trx), (qb) => qb.forUpdate())
    .execute();
  return rows.map((row) => row.id);
}

/** The user row, locked for the rest of the transaction on PostgreSQL. */
export function findUserForUpdate(trx: Trx, id: string): Promise<User | undefined> {
  return trx
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .$if(isPostgres(trx), (qb) => qb.forUpdate())
    .executeTakeFirst();
}

export function updateUserFields(trx: Trx, id: string, fields: UserUpdate): Promise<User> {
  return trx.updateTable('users').set(fields).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function findAnyAdminId(db: DbOrTrx): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
  return row?.id;
}

/** Makes the account with this email an enabled, unlocked admin with this password; inserts it when missing. */
export async function upsertAdmin(db: DbOrTrx, user: NewUser): Promise<void> {
  await db
    .insertInto('users')
    .values(user)
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        role: 'admin',
        disabled: 0,
        failed_attempts: 0,
        locked_until: null,
        password_hash: user.password_hash,
        // ADMIN_PASSWORD is the operator's own choice: never one to force a change of.
        must_change_password: user.must_change_password ?? 0,
        updated_at: user.updated_at,
      }),
    )
    .execute();
}

/**
 * Lifts a lock and re-enables the account; with a hash, sets that password too (`oneUse`: a printed password
 * the owner must replace before doing anything else).
 */
export async function restoreAccess(
  db: DbOrTrx,
  id: string,
  fields: { passwordHash?: string; oneUse?: boolean; now: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      disabled: 0,
      failed_attempts: 0,
      locked_until: null,
      ...(fields.passwordHash
        ? { password_hash: fields.passwordHash, must_change_password: fields.oneUse ? 1 : 0 }
        : {}),
      updated_at: fields.now,
    })
    .where('id', '=', id)
    .execute();
}
