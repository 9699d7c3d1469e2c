import { createQueryId, type CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import type { Db } from '../src/db/database';

/**
 * The database with a recorder of every query sent through it, and those queries compiled as the database runs
 * them: tests read what a repository asked, wherever its query changes.
 */
export function recordingQueries(db: Db): { db: Db; sent: () => CompiledQuery[] } {
  const nodes: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return {
    db: db.withPlugin(recorder),
    sent: () => nodes.map((node) => db.getExecutor().compileQuery(node, createQueryId())),
  };
}
