import { CompiledQuery, type Compilable, type DialectAdapter } from 'kysely';
import type { Db, DbOrTrx } from './database';
import { directSqlite } from './held-connection';

/**
 * The SQL text of every reusable query, with the name PostgreSQL prepares it under: a reusable query is parsed
 * and planned once per connection instead of on every call (database.ts). Only these texts are prepared: their
 * number is fixed by the code, and each is a lookup by key whose plan does not depend on the values.
 */
const preparedNames = new Map<string, string>();

/** The prepared statement name of a reusable query's SQL; undefined for any other query. */
export function preparedStatementName(sql: string): string | undefined {
  return preparedNames.get(sql);
}

/**
 * A query built and compiled once per database and run again with new parameters: Kysely otherwise builds,
 * freezes and compiles the same query tree on every call, which costs more than running a small query on
 * SQLite. The builder receives `param(name)` placeholders in place of the values that change; a value written
 * in the builder stays fixed, and the shape of the query may not depend on the parameters.
 */
export function reusableQuery<Params extends Record<string, unknown>, Row>(
  build: (db: Db, param: <K extends keyof Params & string>(name: K) => Params[K]) => Compilable<Row>,
): (db: DbOrTrx, params: Params) => Promise<Row[]> {
  // Each parameter of the compiled query: a named one, or a value fixed in the builder.
  type Slot = { name: keyof Params } | { value: unknown };
  const compiledFor = new WeakMap<DialectAdapter, { query: CompiledQuery<Row>; slots: Slot[] }>();

  const compile = (db: DbOrTrx) => {
    const markers = new Map<string, keyof Params>();
    const param = <K extends keyof Params & string>(name: K): Params[K] => {
      const marker = `\u0000param:${name}:${markers.size}`;
      markers.set(marker, name);
      return marker as Params[K];
    };
    const query = build(db as Db, param).compile();
    const slots = query.parameters.map((value): Slot => {
      const name = typeof value === 'string' ? markers.get(value) : undefined;
      return name === undefined ? { value } : { name };
    });
    if (slots.filter((slot) => 'name' in slot).length !== markers.size)
      throw new Error(`reusableQuery: a param() of "${query.sql}" went unused`);
    if (!preparedNames.has(query.sql)) preparedNames.set(query.sql, `tc_q${preparedNames.size + 1}`);
    return { query, slots };
  };

  return async (db, params) => {
    const adapter = db.getExecutor().adapter;
    let compiled = compiledFor.get(adapter);
    if (!compiled) {
      compiled = compile(db);
      compiledFor.set(adapter, compiled);
    }
    const { query, slots } = compiled;
    const values = slots.map((slot) => ('name' in slot ? params[slot.name] : slot.value));
    // On a SQLite connection this caller holds, or nobody holds, the statement runs at once, as Kysely's driver would.
    const sqlite = directSqlite(db);
    if (sqlite) {
      const statement = sqlite.prepare(query.sql);
      if (statement.reader) return statement.all(values) as Row[];
      statement.run(values);
      return [];
    }
    const result = await db.executeQuery<Row>(CompiledQuery.raw(query.sql, values) as CompiledQuery<Row>);
    return result.rows;
  };
}
