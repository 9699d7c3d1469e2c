/** True when a write failed because a unique index already holds the value (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * True when a statement gave up waiting for another writer's lock: SQLite's busy timeout ran out (every
 * SQLITE_BUSY variant), or PostgreSQL's lock_timeout did. Trying again shortly usually succeeds.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) || code === '55P03';
}
