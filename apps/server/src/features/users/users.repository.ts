import type {
  DashboardStats,
  ManagedUser,
  PendingUser,
  UserStats,
  UsersPage,
  usersListQuerySchema,
} from '@tradecraft/shared';
import { PostgresAdapter, sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { z } from 'zod';
import { nowIso } from '../../clock';
import type { DbOrTrx, Trx } from '../../db/database';
import type { NewUser, User, UserUpdate } from '../../db/schema';
import { collectedFirst } from '../../db/collected-first';
import { boundedCount, boundedTotal, COUNT_CAP_MIN, countCapFor } from '../../db/bounded-count';
import { countedSince } from '../../db/event-counts';
import { containsOnIndex, matchesThroughSearchIndex } from '../../db/text-search';

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
const isBlocked = (now: string) =>
  sql<SqlBool>`(${sql.ref('users.disabled')} = 1 or coalesce(${sql.ref('users.locked_until')}, '') > ${now})`;

const FULL_NAME = sql<string>`${sql.ref('users.first_name')} || ' ' || ${sql.ref('users.last_name')}`;
/** The Manage Users search: name, email or designation contains the text, ignoring case (containsOnIndex). */
async function userHolds(db: DbOrTrx, text: string): Promise<Expression<SqlBool>> {
  const each = await Promise.all([
    containsOnIndex(db, 'users.full_name', FULL_NAME, text),
    containsOnIndex(db, 'users.email', sql.ref('users.email'), text),
    containsOnIndex(db, 'users.designation', sql.ref('users.designation'), text),
  ]);
  return sql<SqlBool>`(${sql.join(each, sql` or `)})`;
}

/** The role and status filters; pending registrations only appear when role=pending asks for them. */
function userConditions(filters: UsersListFilters): Expression<SqlBool>[] {
  const role = sql.ref('users.role');
  const conditions = [
    filters.role === undefined ? sql<SqlBool>`${role} <> 'pending'` : sql<SqlBool>`${role} = ${filters.role}`,
  ];
  if (filters.status === 'disabled') conditions.push(isBlocked(nowIso()));
  if (filters.status === 'active') conditions.push(sql<SqlBool>`not ${isBlocked(nowIso())}`);
  return conditions;
}

/**
 * The Manage Users filters, the search (`holds`, see userHolds) tested on each account read, or the accounts kept
 * to those `ids` names.
 */
function filteredUsers(db: DbOrTrx, filters: UsersListFilters, holds?: Expression<SqlBool>, ids?: string[]) {
  const conditions = userConditions(filters);
  if (ids) conditions.push(sql<SqlBool>`${sql.ref('users.id')} in (${sql.join(ids)})`);
  else if (holds) conditions.push(holds);
  return db.selectFrom('users').where((eb) => eb.and(conditions));
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

const MANAGED_USER_COLUMNS = [
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

/**
 * One page of Manage Users, filtered, sorted and paged in SQL. Each sort has its index (migration
 * 2026_11_26_0200), so a page is an index walk, and the total is counted only as far as the pager needs. A search
 * first finds its matches through the search index, up to the count's cap; few are sorted alone, many (common
 * text) leave the page to the walk, which finds them among the first accounts it reads (docs/operations.md,
 * "Searching and counting").
 */
export async function listManagedUsers(db: DbOrTrx, query: z.output<typeof usersListQuerySchema>): Promise<UsersPage> {
  const { page, pageSize } = query;
  const cap = countCapFor(page, pageSize);
  const search = query.search?.trim();
  const holds = search ? await userHolds(db, search) : undefined;
  const indexed = search
    ? await matchesThroughSearchIndex(db, {
        table: 'users',
        key: sql.ref('users.id'),
        value: sql.ref<string>('users.id'),
        searches: [
          { column: 'users.full_name', text: search },
          { column: 'users.email', text: search },
          { column: 'users.designation', text: search },
        ],
        conditions: [...userConditions(query), holds!],
        limit: cap + 1,
        holding: 'any',
      })
    : null;
  const count = indexed
    ? boundedTotal(indexed.length, cap)
    : await boundedCount(db, filteredUsers(db, query, holds).select('users.id'), cap);
  if (count.total === 0) return { items: [], ...count, page, pageSize };
  const few = Boolean(search) && !count.totalIsLowerBound && count.total <= COUNT_CAP_MIN;
  const matches = filteredUsers(db, query, holds, few && indexed ? indexed : undefined).select(MANAGED_USER_COLUMNS);
  const rows = few
    ? await orderedUsers(collectedFirst(db, matches), query).execute()
    : await orderedUsers(matches, query).execute();
  return { items: rows.map(toManagedUser), ...count, page, pageSize };
}

/** Sorts and pages accounts, in the order of the sort's index. People's names sort as they read, lower-cased. */
function orderedUsers<DB, TB extends keyof DB>(
  query: SelectQueryBuilder<DB, TB, ManagedUserRow>,
  { sort, dir, page, pageSize }: Pick<z.output<typeof usersListQuerySchema>, 'sort' | 'dir' | 'page' | 'pageSize'>,
) {
  let sorted = query;
  if (sort === 'name') sorted = sorted.orderBy(sql`lower(first_name)`, dir).orderBy(sql`lower(last_name)`, dir);
  else if (sort === 'designation') sorted = sorted.orderBy(sql`lower(designation)`, dir);
  else if (sort === 'status') sorted = sorted.orderBy(sql.ref('disabled'), dir).orderBy(sql`lower(first_name)`, 'asc');
  else sorted = sorted.orderBy(sql.ref(sort), dir);
  return sorted
    .orderBy(sql.ref('id'), dir)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/**
 * The Manage Users cards. Pending, approved and active (not disabled) accounts are counted by triggers (row_counts,
 * migration 2026_11_26_0200); the accounts locked now after failed sign-ins, few and found through the index of
 * `locked_until`, are taken from the active ones.
 */
export async function userStats(db: DbOrTrx): Promise<UserStats> {
  const counter = (name: string) => db.selectFrom('row_counts').select('value').where('name', '=', name);
  const row = await db
    .selectNoFrom((eb) => [
      counter('users:approved').as('total'),
      counter('users:active').as('unlocked'),
      counter('users:pending').as('pending'),
      eb
        .selectFrom('users')
        .select(eb.fn.countAll<number>().as('c'))
        .where('locked_until', '>', nowIso())
        .where('disabled', '=', 0)
        .where('role', '!=', 'pending')
        .as('locked'),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(row.total ?? 0);
  const active = Number(row.unlocked ?? 0) - Number(row.locked ?? 0);
  return { total, active, disabled: total - active, pending: Number(row.pending ?? 0) };
}

/**
 * The Admin Dashboard's counts, in one round trip. The account counts are kept by triggers (row_counts,
 * migration 2026_11_26_0200); the week's runs and the day's failed sign-ins by quarter-hour counters (event-counts.ts).
 */
export async function dashboardCounts(
  db: DbOrTrx,
  since: { weekStart: string; dayStart: string },
): Promise<DashboardStats> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('row_counts').select('value').where('name', '=', 'users:pending').as('pending'),
      eb.selectFrom('row_counts').select('value').where('name', '=', 'users:active').as('active_users'),
      countedSince(eb, { table: 'runs' }, since.weekStart).as('runs_this_week'),
      countedSince(eb, { table: 'login_events', event: 'failed_login' }, since.dayStart).as('failed_today'),
    ])
    .executeTakeFirstOrThrow();
  return {
    pending: Number(row.pending ?? 0),
    activeUsers: Number(row.active_users ?? 0),
    runsThisWeek: Number(row.runs_this_week),
    failedSignInsToday: Number(row.failed_today),
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
