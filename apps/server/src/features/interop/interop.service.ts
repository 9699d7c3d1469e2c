import { checkScenario, STIX_MESSAGES, type StixImportResponse, VERSION_MESSAGES } from '@tradecraft/shared';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { AppError, badRequest, conflict } from '../../errors';
import { recordAuditAlone } from '../audit/audit.service';
import { newDraftScenario, readVersion, versionHistory } from '../scenarios/versions.service';
import { stixBundleOf } from './stix-export';
import { scenarioFromStix, StixImportError } from './stix-import';
import { MAX_STIX_OBJECTS, validateStixBundle, type StixBundle } from './stix-validation';

const SCREEN = 'Upload Scenario';
/** How many ids an import tries when the one its name gives is taken (`apt-report`, `apt-report-2`, ...). */
const ID_TRIES = 20;

/** No list in a bundle is longer than this: a bundle holds at most MAX_STIX_OBJECTS objects. */
const MAX_LIST_ITEMS = MAX_STIX_OBJECTS;
/** Nor nested deeper than this (STIX objects and their extensions are a few levels deep). */
const MAX_DEPTH = 100;

/**
 * A look at the bytes before JSON.parse builds anything: a list longer than any bundle needs, or nesting deeper,
 * is refused here, so a 5 MB file of a million repeated values never becomes a million-element array in memory.
 * Only the structure is read (strings skipped, escapes included); whether it is JSON is JSON.parse's to say.
 */
function jsonShapeProblem(bytes: Buffer): string | undefined {
  const counts: number[] = [];
  const arrays: boolean[] = [];
  let inString = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (inString) {
      if (byte === 0x5c) index += 1;
      else if (byte === 0x22) inString = false;
      continue;
    }
    if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      counts.push(0);
      arrays.push(byte === 0x5b);
      if (counts.length > MAX_DEPTH) {
        return `The file nests lists and objects more than ${MAX_DEPTH} deep (at byte ${index.toLocaleString('en')}); a STIX bundle is a few levels deep.`;
      }
    } else if (byte === 0x5d || byte === 0x7d) {
      counts.pop();
      arrays.pop();
    } else if (byte === 0x2c && arrays.at(-1)) {
      // A list of n items has n - 1 commas: this many commas make one item too many.
      const commas = (counts[counts.length - 1] ?? 0) + 1;
      counts[counts.length - 1] = commas;
      if (commas >= MAX_LIST_ITEMS) {
        return `The file holds a list of more than ${MAX_LIST_ITEMS.toLocaleString('en')} items (at byte ${index.toLocaleString('en')}); an import reads at most ${MAX_STIX_OBJECTS.toLocaleString('en')} objects, and no list in them is longer.`;
      }
    }
  }
  return undefined;
}

/**
 * An Attack Flow Builder save file (JSON with the builder's `schema`, `layout` and `camera`, no `type`): the
 * builder's own format, not STIX, whatever its name.
 */
function isAttackFlowBuilderFile(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return record.type === undefined && 'schema' in record && ('layout' in record || 'camera' in record);
}

function refused(message: string, problems: string[] = []): AppError {
  return badRequest(
    message,
    problems.length > 0
      ? { problems, issues: problems.map((problem) => ({ path: 'file', message: problem })) }
      : undefined,
  );
}

/**
 * POST /api/sim/import-stix: a STIX 2.1 bundle (a threat report, or an Attack Flow) becomes a draft-only scenario
 * for an author to finish and publish. The bundle must validate against the STIX 2.1 schemas; nothing is stored
 * otherwise. An id already taken gets a numbered suffix, so importing the same report twice makes two drafts.
 */
export async function importStixBundle(
  db: Db,
  admin: User,
  file: { filename: string; bytes: Buffer },
): Promise<StixImportResponse> {
  if (/\.afb$/i.test(file.filename)) throw refused(STIX_MESSAGES.attackFlowBuilder);
  const shape = jsonShapeProblem(file.bytes);
  if (shape) throw refused(STIX_MESSAGES.notBundle, [shape]);
  let value: unknown;
  try {
    // A byte-order mark is not JSON, but editors on Windows write one: it is read past (without copying the text).
    const bom = file.bytes[0] === 0xef && file.bytes[1] === 0xbb && file.bytes[2] === 0xbf;
    value = JSON.parse(file.bytes.toString('utf8', bom ? 3 : 0));
  } catch {
    throw refused(STIX_MESSAGES.notJson);
  }
  if (isAttackFlowBuilderFile(value)) throw refused(STIX_MESSAGES.attackFlowBuilder);
  const validation = validateStixBundle(value);
  if (!validation.ok) throw refused(STIX_MESSAGES.notBundle, validation.problems);
  let imported;
  try {
    imported = scenarioFromStix(validation.bundle, validation.warnings);
  } catch (error) {
    if (error instanceof StixImportError) throw refused(error.message);
    throw error;
  }
  const baseId = imported.scenario.id!;
  for (let attempt = 1; attempt <= ID_TRIES; attempt += 1) {
    const suffix = attempt === 1 ? '' : `-${attempt}`;
    const id = `${baseId.slice(0, 64 - suffix.length)}${suffix}`;
    try {
      const draft = await newDraftScenario(db, admin, { definition: { ...imported.scenario, id } });
      await recordAuditAlone(db, {
        actor: admin.email,
        action: 'import STIX bundle',
        details:
          `Imported ${file.filename} (${imported.summary.source === 'attack-flow' ? 'Attack Flow' : 'report'}) as the ` +
          `draft "${imported.scenario.name}" (${id}): ${imported.summary.steps} steps, ` +
          `${imported.summary.notMapped.length} objects or details not mapped`,
        screen: SCREEN,
      });
      return {
        id,
        name: imported.scenario.name,
        number: draft.number,
        revision: draft.revision,
        problems: draft.problems,
        summary: imported.summary,
      };
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 409 && error.message === VERSION_MESSAGES.idTaken) continue;
      throw error;
    }
  }
  throw conflict(VERSION_MESSAGES.idTaken);
}

/**
 * GET /api/sim/:id/stix: the intelligence of a scenario version (its current one by default) as a STIX 2.1
 * bundle: a report, the attack patterns of its techniques, indicators, the sources as external references, and
 * TLP markings. A draft that does not pass the checker cannot be exported.
 */
export async function exportStixBundle(
  db: Db,
  admin: User,
  id: string,
  publicOrigin: string,
  versionNumber: number | undefined,
): Promise<{ filename: string; bundle: StixBundle }> {
  const history = await versionHistory(db, id);
  const number = versionNumber ?? history.currentVersion ?? history.draft?.number;
  if (number === undefined) throw new AppError(404, VERSION_MESSAGES.noVersion);
  const version = await readVersion(db, id, number);
  const summary = history.versions.find((entry) => entry.number === number);
  const checked = checkScenario(version.definition);
  if (!checked.ok) {
    throw conflict(
      `Version ${number} has problems the checker must not find before it can be exported; fix them in the editor first.`,
    );
  }
  const bundle = stixBundleOf(id, checked.scenario, {
    scenarioUrl: `${publicOrigin}/scenarios/${encodeURIComponent(id)}`,
    published: new Date(summary?.publishedAt ?? summary?.savedAt ?? Date.now()),
  });
  await recordAuditAlone(db, {
    actor: admin.email,
    action: 'export STIX bundle',
    details: `Downloaded version ${number} of "${history.name}" (${id}) as STIX 2.1`,
    screen: 'Scenario Configurator',
  });
  return { filename: `${id}-v${number}.stix.json`, bundle };
}
