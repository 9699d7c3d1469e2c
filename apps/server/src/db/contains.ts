import { sql, type Expression, type SqlBool } from 'kysely';

/** `%text%` with the LIKE wildcards in the text escaped, so '50%' and 'a_b' match literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Case-insensitive "contains" that both SQLite and PostgreSQL run alike: lower(col) LIKE lower(?) with an
 * explicit escape character (SQLite's LIKE ignores ASCII case, PostgreSQL's does not).
 */
export function containsIgnoringCase(column: Expression<unknown>, text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${column}) like lower(${containsPattern(text)}) escape '\\'`;
}
