import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

/**
 * better-sqlite3, in the major that suits the running Node. Up to 12 it is built on node::ObjectWrap, which on
 * Node 24 aborts the process when a statement is collected (`RemoveEnvironmentCleanupHook ... (env) != nullptr`);
 * 13 is built on Node-API (prebuilt, installed as the alias `better-sqlite3-napi`) but needs Node 22 and crashes on
 * 20. So Node 22+ loads 13 and Node 20 keeps 12; both have the same API.
 */
export const SQLITE_DRIVER_PACKAGE = nodeMajor >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

function loadDriver(): typeof BetterSqlite3 {
  return require(SQLITE_DRIVER_PACKAGE) as typeof BetterSqlite3;
}

const SQLite = loadDriver();
export default SQLite;
export type { BetterSqlite3 };
