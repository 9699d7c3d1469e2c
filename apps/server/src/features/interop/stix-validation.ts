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

/** At most this many problems are reported: enough to act on, never a wall of text. */
const MAX_PROBLEMS = 20;

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

export type StixValidation = { ok: true; bundle: StixBundle } | { ok: false; problems: string[] };

interface Validators {
  bundle: ValidateFunction;
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
// Compiled once, on first use: about 60 schemas, a few hundred milliseconds, never on the answer path.
function compileValidators(): Validators {
  const ajv = new Ajv2020({ allErrors: true, strict: false, unicodeRegExp: false });
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
    bundle: ajv.compile({
      type: 'object',
      required: ['type', 'id', 'objects'],
      properties: {
        type: { const: 'bundle' },
        id: { $ref: `${STIX_SCHEMA_BASE}common/identifier.json` },
        objects: { type: 'array', minItems: 1, items: { type: 'object', required: ['type', 'id'] } },
      },
    }),
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

// Of an anyOf/oneOf's many branch errors, the ones deepest in the object say the most.
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const relevant = errors.filter((error) => !['anyOf', 'oneOf', 'allOf', 'if', 'not'].includes(error.keyword));
  const pool = relevant.length > 0 ? relevant : [...errors];
  const depth = Math.max(...pool.map((error) => error.instancePath.split('/').length));
  return pool.filter((error) => error.instancePath.split('/').length === depth).slice(0, 3);
}

function objectValidator(all: Validators, object: StixObject): ValidateFunction {
  if (ATTACK_FLOW_TYPES.has(object.type)) return all.attackFlow;
  return all.byType.get(object.type) ?? all.custom;
}

/** Checks a parsed JSON value as a STIX 2.1 bundle; problems name the object (by index and id) and the property. */
export function validateStixBundle(value: unknown): StixValidation {
  validators ??= compileValidators();
  const all = validators;
  if (!all.bundle(value)) {
    return {
      ok: false,
      problems: [
        'The file is not a STIX 2.1 bundle: it must be a JSON object with "type": "bundle", an "id" such as ' +
          '"bundle--<uuid>" and a non-empty "objects" list.',
      ],
    };
  }
  const bundle = value as StixBundle;
  const problems: string[] = [];
  const seen = new Set<string>();
  bundle.objects.forEach((object, index) => {
    if (problems.length >= MAX_PROBLEMS) return;
    const label = `objects[${index}] (${typeof object.id === 'string' ? object.id : object.type})`;
    if (seen.has(object.id)) problems.push(`${label}: the id appears twice in the bundle`);
    seen.add(object.id);
    const validate = objectValidator(all, object);
    if (!validate(object)) {
      for (const error of mostSpecific(validate.errors ?? [])) problems.push(`${label}: ${describeError(error)}`);
    }
  });
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, MAX_PROBLEMS) };
  return { ok: true, bundle };
}
