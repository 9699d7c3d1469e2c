// Validates STIX 2.1 bundles against the OASIS STIX 2.1 JSON schemas (stix-schemas/, OASIS licence) and Attack
// Flow objects against the Attack Flow 2.0 schema (attack-flow-schema/, Apache 2.0). Each object is checked
// against the schema of its own type, so a problem names the object and the property rather than the whole
// bundle's anyOf. docs/interoperability.md says what the import and the export do.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

import { PROJECT_ROOT } from '../../paths';

// Found from the repository's root, so the compiled server (apps/server/dist) reads the same files as the sources.
const here = join(PROJECT_ROOT, 'apps', 'server', 'src', 'features', 'interop');
const STIX_SCHEMA_DIR = join(here, 'stix-schemas');
const ATTACK_FLOW_SCHEMA_FILE = join(here, 'attack-flow-schema', 'attack-flow-schema-2.0.0.json');
const STIX_SCHEMA_BASE = 'http://raw.githubusercontent.com/oasis-open/cti-stix2-json-schemas/stix2.1/schemas/';
const STIX_SCHEMA_MASTER_BASE = 'https://raw.githubusercontent.com/oasis-open/cti-stix2-json-schemas/master/schemas/';

/** The extension definition id of Attack Flow 2.0 (its objects carry it in `extensions`). */
export const ATTACK_FLOW_EXTENSION_ID = 'extension-definition--fb9c968a-745b-4ade-9b25-c324172197f4';
export const ATTACK_FLOW_TYPES = new Set([
  'attack-flow',
  'attack-action',
  'attack-asset',
  'attack-condition',
  'attack-operator',
]);

/** Validation stops after this many problems: enough to act on, never a wall of text or a pile of memory. */
export const MAX_STIX_PROBLEMS = 50;
/** A bundle holds at most this many objects (MITRE's ICS and Mobile collections hold about 2,000; a 5 MB file of tiny objects about 60,000). */
export const MAX_STIX_OBJECTS = 20_000;

/**
 * The object types the import reads (stix-import.ts): each is checked against its schema. Any other type
 * (MITRE's x-mitre-* objects, courses of action, observed data...) is skipped unchecked, with a warning.
 */
export const STIX_TYPES_READ = new Set([
  'report',
  'intrusion-set',
  'threat-actor',
  'campaign',
  'attack-pattern',
  'indicator',
  'malware',
  'tool',
  'infrastructure',
  'vulnerability',
  'relationship',
  'marking-definition',
  'identity',
  'extension-definition',
  ...ATTACK_FLOW_TYPES,
]);

export interface StixObject {
  type: string;
  id: string;
  [property: string]: unknown;
}

export interface StixBundle {
  type: 'bundle';
  id: string;
  objects: StixObject[];
}

export type StixValidation =
  | {
      ok: true;
      bundle: StixBundle;
      /** What validation skipped or settled on the way (older versions, unread types, trimmed addresses). */
      warnings: string[];
    }
  | { ok: false; problems: string[] };

interface Validators {
  byType: Map<string, ValidateFunction>;
  custom: ValidateFunction;
  attackFlow: ValidateFunction;
}

let validators: Validators | undefined;

function schemaFiles(): { folder: string; file: string }[] {
  return ['common', 'sdos', 'sros', 'observables'].flatMap((folder) =>
    readdirSync(join(STIX_SCHEMA_DIR, folder))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({ folder, file })),
  );
}

// The OASIS patterns escape `-` outside a class, which a Unicode-mode RegExp refuses: compile them without u.
// allErrors stays off: each object's first failure is enough, and a file of repeated bad values cannot make
// hundreds of thousands of error objects. Compiled once, on first use: about 60 schemas, a few hundred milliseconds, never on the answer path.
function compileValidators(): Validators {
  const ajv = new Ajv2020({ allErrors: false, strict: false, unicodeRegExp: false });
  const addFormats = addFormatsModule as unknown as (instance: Ajv2020) => void;
  addFormats(ajv);
  // idn-hostname (domain-name values) is not among ajv-formats' formats; a hostname check is the closest.
  ajv.addFormat('idn-hostname', /^[^\s/:@]+$/u);
  const byType = new Map<string, ValidateFunction>();
  const typeSchemaIds: { folder: string; type: string; id: string }[] = [];
  for (const { folder, file } of schemaFiles()) {
    const schema = JSON.parse(readFileSync(join(STIX_SCHEMA_DIR, folder, file), 'utf8')) as { $id?: string };
    ajv.addSchema(schema);
    if (folder !== 'common' || file === 'marking-definition.json' || file === 'extension-definition.json') {
      typeSchemaIds.push({
        folder,
        type: file.replace(/\.json$/, ''),
        id: schema.$id ?? `${STIX_SCHEMA_BASE}${folder}/${file}`,
      });
    }
  }
  for (const { type, id } of typeSchemaIds) byType.set(type, ajv.getSchema(id)!);
  // The Attack Flow schema names the OASIS timestamp schema by its address on the master branch.
  ajv.addSchema({
    $id: `${STIX_SCHEMA_MASTER_BASE}common/timestamp.json`,
    $ref: `${STIX_SCHEMA_BASE}common/timestamp.json`,
  });
  const attackFlowSchema = JSON.parse(readFileSync(ATTACK_FLOW_SCHEMA_FILE, 'utf8')) as object;
  return {
    byType,
    custom: ajv.getSchema(`${STIX_SCHEMA_BASE}common/core.json`)!,
    attackFlow: ajv.compile(attackFlowSchema),
  };
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath || '(object)';
  if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
    const property = error.params as { additionalProperty?: string; unevaluatedProperty?: string };
    return `${where}: unknown property "${property.additionalProperty ?? property.unevaluatedProperty}"`;
  }
  if (error.keyword === 'required') {
    return `${where}: missing "${(error.params as { missingProperty: string }).missingProperty}"`;
  }
  return `${where} ${error.message ?? 'is not valid'}`;
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);

/**
 * The one error that says the most about an object: of an anyOf's branch errors, the deepest in the object that
 * is not itself a combinator. One line per object, so a problem is never named three times. A loop, never a
 * spread over the errors: there may be many.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject | undefined {
  let best: ErrorObject | undefined;
  let bestDepth = -1;
  for (const error of errors) {
    const depth = error.instancePath.split('/').length + (COMBINATORS.has(error.keyword) ? 0 : 0.5);
    if (depth > bestDepth) {
      best = error;
      bestDepth = depth;
    }
  }
  return best;
}

function objectValidator(all: Validators, object: StixObject): ValidateFunction {
  if (ATTACK_FLOW_TYPES.has(object.type)) return all.attackFlow;
  return all.byType.get(object.type) ?? all.custom;
}

const IDENTIFIER =
  /^[a-z][a-z0-9-]+[a-z0-9]--[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-5][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
const NOT_A_BUNDLE =
  'The file is not a STIX 2.1 bundle: it must be a JSON object with "type": "bundle", an "id" such as ' +
  '"bundle--<uuid>" and a non-empty "objects" list.';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function timeOf(object: StixObject): number {
  const stamp = typeof object.modified === 'string' ? object.modified : object.created;
  const time = typeof stamp === 'string' ? Date.parse(stamp) : NaN;
  return Number.isNaN(time) ? -Infinity : time;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/**
 * What publishers' real data needs before the schemas see it, on a copy of the object: empty lists (which STIX
 * forbids but MITRE's collections carry) are dropped, and external reference addresses lose surrounding spaces.
 */
function tidied(object: StixObject, counts: { emptyLists: number; trimmedUrls: number }): StixObject {
  let copy: StixObject | undefined;
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (Array.isArray(value) && value.length === 0) {
      copy ??= { ...object };
      delete copy[key];
      counts.emptyLists += 1;
    }
  }
  const references = object.external_references;
  if (Array.isArray(references)) {
    let changed = false;
    const trimmed = references.map((reference: unknown) => {
      if (!isRecord(reference) || typeof reference.url !== 'string' || reference.url.trim() === reference.url) {
        return reference;
      }
      changed = true;
      counts.trimmedUrls += 1;
      return { ...reference, url: reference.url.trim() };
    });
    if (changed) {
      copy ??= { ...object };
      copy.external_references = trimmed;
    }
  }
  return copy ?? object;
}

/**
 * Checks a parsed JSON value as a STIX 2.1 bundle. Problems name the object (by index and id) and the property,
 * one line per object, and checking stops after MAX_STIX_PROBLEMS. Of an id that appears more than once, the
 * newest version (latest `modified`) is kept; objects of types the import does not read are skipped unchecked.
 * Each is said in `warnings`.
 */
export function validateStixBundle(value: unknown): StixValidation {
  if (!isRecord(value) || value.type !== 'bundle' || typeof value.id !== 'string' || !IDENTIFIER.test(value.id)) {
    return { ok: false, problems: [NOT_A_BUNDLE] };
  }
  const objects = value.objects;
  if (!Array.isArray(objects) || objects.length === 0) return { ok: false, problems: [NOT_A_BUNDLE] };
  if (objects.length > MAX_STIX_OBJECTS) {
    return {
      ok: false,
      problems: [
        `The bundle holds ${plural(objects.length, 'object')}; an import reads at most ${MAX_STIX_OBJECTS.toLocaleString('en')}. ` +
          'Cut the bundle to the report, intrusion set or flow you want to train on.',
      ],
    };
  }
  validators ??= compileValidators();
  const all = validators;
  const problems: string[] = [];
  const add = (problem: string): boolean => {
    problems.push(problem);
    return problems.length >= MAX_STIX_PROBLEMS;
  };

  // The newest version of each id, in the order the ids first appear.
  const newest = new Map<string, { object: StixObject; index: number }>();
  let olderVersions = 0;
  const versioned = new Set<string>();
  for (let index = 0; index < objects.length; index += 1) {
    const object: unknown = objects[index];
    if (!isRecord(object) || typeof object.type !== 'string' || typeof object.id !== 'string') {
      if (add(`objects[${index}]: every object needs a "type" and an "id"`)) break;
      continue;
    }
    const stix = object as StixObject;
    const kept = newest.get(stix.id);
    if (!kept) {
      newest.set(stix.id, { object: stix, index });
      continue;
    }
    olderVersions += 1;
    versioned.add(stix.id);
    if (timeOf(stix) > timeOf(kept.object)) newest.set(stix.id, { object: stix, index: kept.index });
  }
  if (problems.length > 0) return { ok: false, problems };

  const counts = { emptyLists: 0, trimmedUrls: 0 };
  const skipped = new Map<string, number>();
  const kept: StixObject[] = [];
  for (const { object, index } of newest.values()) {
    if (!STIX_TYPES_READ.has(object.type)) {
      skipped.set(object.type, (skipped.get(object.type) ?? 0) + 1);
      continue;
    }
    const tidy = tidied(object, counts);
    const validate = objectValidator(all, tidy);
    if (!validate(tidy)) {
      const error = mostSpecific(validate.errors ?? []);
      if (add(`objects[${index}] (${object.id}): ${error ? describeError(error) : 'is not valid'}`)) break;
      continue;
    }
    kept.push(tidy);
  }
  if (problems.length > 0) return { ok: false, problems };

  const warnings: string[] = [];
  if (olderVersions > 0) {
    const named = [...versioned].slice(0, 3).join(', ');
    warnings.push(
      `${versioned.size === 1 ? 'One object appears' : `${plural(versioned.size, 'object')} appear`} more than once (${named}${versioned.size > 3 ? ', ...' : ''}): ` +
        `the newest version of each (latest "modified") was kept and ${plural(olderVersions, 'older one')} left out.`,
    );
  }
  for (const [type, count] of skipped) {
    warnings.push(`${plural(count, `${type} object`)}: the import does not read this type, so skipped it unchecked.`);
  }
  if (counts.emptyLists > 0) {
    warnings.push(`${plural(counts.emptyLists, 'empty list')} (which STIX does not allow) read as absent.`);
  }
  if (counts.trimmedUrls > 0) {
    warnings.push(
      `${plural(counts.trimmedUrls, 'reference address', 'reference addresses')} read without their surrounding spaces.`,
    );
  }
  return { ok: true, bundle: { type: 'bundle', id: value.id, objects: kept }, warnings };
}
