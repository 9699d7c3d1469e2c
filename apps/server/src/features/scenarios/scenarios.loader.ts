import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkScenarioText, formatProblem, type ScenarioDefinition } from '@tradecraft/shared';
import { nowIso } from '../../clock';
import type { Db } from '../../db/database';
import { BUILTIN_SCENARIOS_DIR } from '../../paths';
import { isUniqueViolation } from '../../db/errors';
import { findScenarioStates, insertScenario } from './scenarios.repository';
import { findLatestBuiltinSource, latestBuiltinSources } from './versions.repository';
import { publishDefinition } from './versions.service';

export { BUILTIN_SCENARIOS_DIR };

const SCENARIO_FILE = /\.(ya?ml|json)$/i;

export interface ScenarioLoadLogger {
  warn(details: object, message: string): void;
}

export interface BuiltinLoadResult {
  /** Built-in scenarios now in the database as their files say (inserted + updated + unchanged). */
  loaded: number;
  inserted: string[];
  updated: string[];
  unchanged: string[];
  /** Ids an admin deleted: they stay deleted. */
  keptDeleted: string[];
  /** Files left out, with every problem found in them. */
  skipped: { file: string; problems: string[] }[];
}

interface CheckedFile {
  file: string;
  scenario: ScenarioDefinition & { id: string };
  contentHash: string;
}

const consoleLogger: ScenarioLoadLogger = { warn: (details, message) => console.warn(message, details) };

/**
 * Loads the built-in library into the database at start-up: inserts new scenarios (as version 1, published),
 * publishes a changed file as a new version, writes nothing for unchanged files, and never brings back a scenario an admin deleted.
 * A broken file is logged with its problems and skipped; start-up goes on.
 */
export async function loadBuiltinScenarios(
  db: Db,
  dir: string = BUILTIN_SCENARIOS_DIR,
  log: ScenarioLoadLogger = consoleLogger,
): Promise<BuiltinLoadResult> {
  const result: BuiltinLoadResult = {
    loaded: 0,
    inserted: [],
    updated: [],
    unchanged: [],
    keptDeleted: [],
    skipped: [],
  };
  const skip = (file: string, problems: string[]) => {
    result.skipped.push({ file, problems });
    log.warn({ file: path.join(dir, file), problems }, 'built-in scenario skipped: the file fails the scenario checks');
  };

  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => SCENARIO_FILE.test(name)).sort();
  } catch (error) {
    log.warn({ dir, err: error }, 'built-in scenario folder cannot be read; no built-in scenarios loaded');
    return result;
  }

  const checked: CheckedFile[] = [];
  const fileById = new Map<string, string>();
  // A file exactly as last loaded needs no check: start-up then reads the library without parsing it again.
  const loadedFrom = new Map((await latestBuiltinSources(db)).map((row) => [row.source_hash, row.scenario_id]));
  for (const file of names) {
    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(dir, file));
    } catch (error) {
      skip(file, [`(file): cannot be read: ${error instanceof Error ? error.message : String(error)}`]);
      continue;
    }
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    const unchangedId = loadedFrom.get(contentHash);
    if (unchangedId !== undefined && !fileById.has(unchangedId)) {
      fileById.set(unchangedId, file);
      result.unchanged.push(unchangedId);
      result.loaded += 1;
      continue;
    }
    // The library is held to the stricter content rules (the longest-option rule refuses, where uploads are warned).
    const outcome = checkScenarioText(bytes.toString('utf8'), { origin: 'builtin' });
    if (!outcome.ok) {
      skip(file, outcome.problems.map(formatProblem));
      continue;
    }
    const { id } = outcome.scenario;
    if (id === undefined) {
      // Uploads may leave the id out; a built-in needs a fixed one so progress records stay linked across edits.
      skip(file, ['id: is required in a built-in scenario']);
      continue;
    }
    const earlier = fileById.get(id);
    if (earlier) {
      skip(file, [`id: "${id}" is already used by ${earlier}`]);
      continue;
    }
    fileById.set(id, file);
    checked.push({
      file,
      scenario: { ...outcome.scenario, id },
      contentHash,
    });
  }

  const states = new Map(
    (
      await findScenarioStates(
        db,
        checked.map(({ scenario }) => scenario.id),
      )
    ).map((state) => [state.id, state]),
  );
  const now = nowIso();
  for (const { file, scenario, contentHash } of checked) {
    const state = states.get(scenario.id);
    const publish = {
      scenarioId: scenario.id,
      definition: scenario,
      sourceHash: contentHash,
      contentHash,
      by: null,
      at: now,
    };
    if (!state) {
      const inserted = await db.transaction().execute(async (trx) => {
        const fresh = await insertScenario(trx, {
          id: scenario.id,
          name: scenario.name,
          type: scenario.type,
          difficulty: scenario.difficulty,
          description: scenario.description,
          definition: JSON.stringify(scenario),
          step_count: scenario.steps.length,
          content_hash: contentHash,
          origin: 'builtin',
          source_file_id: null,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        });
        if (fresh) await publishDefinition(trx, publish);
        return fresh;
      });
      // Another server process may have inserted it a moment ago: then it is loaded all the same.
      (inserted ? result.inserted : result.unchanged).push(scenario.id);
    } else if (state.deleted_at !== null) {
      result.keptDeleted.push(scenario.id);
      continue;
    } else if (state.origin !== 'builtin') {
      skip(file, [`id: "${scenario.id}" belongs to an uploaded scenario; give the built-in file another id`]);
      continue;
    } else if ((await findLatestBuiltinSource(db, scenario.id))?.source_hash === contentHash) {
      // The file is as last loaded (an admin may have published edits since: they stay current).
      result.unchanged.push(scenario.id);
    } else {
      // A changed file becomes a new published version; runs on the old one keep playing it.
      try {
        await db.transaction().execute((trx) => publishDefinition(trx, publish));
        result.updated.push(scenario.id);
      } catch (error) {
        // Another server process published the same file a moment ago.
        if (!isUniqueViolation(error)) throw error;
        result.unchanged.push(scenario.id);
      }
    }
    result.loaded += 1;
  }
  return result;
}
