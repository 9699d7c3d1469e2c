import type { FastifySerializerCompiler } from 'fastify/types/schema';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * A response serializer compiled from the route's zod schema turned into JSON Schema (fast-json-stringify, as
 * Fastify serializes without a type provider), for the routes every answer goes through. Like the zod
 * serializer it writes only the properties the schema declares, so a key the handler carries by mistake
 * (a correct flag, an accepted answer) never leaves the server; unlike it, it does not validate the response
 * again field by field and rebuild it before JSON.stringify, which was a tenth of an answer's CPU time.
 * A schema that has no JSON Schema form falls back to the zod serializer.
 */
export const fastSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  // Compiled on the route's first response rather than at start-up, which compiling every route's schema slowed.
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= compileSerializer(route))(data);
};

function compileSerializer(route: Parameters<FastifySerializerCompiler<unknown>>[0]): (data: unknown) => string {
  const { schema } = route;
  if (!(schema instanceof z.ZodType)) return zodSerializerCompiler(route as never);
  // Compiling one of the run engine's schemas takes tens of milliseconds: routes sharing a schema share it.
  let serialize = compiled.get(schema);
  if (!serialize) {
    try {
      const jsonSchema = forSerializing(
        z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }),
      ) as Json;
      const declared = fastJson(jsonSchema as unknown as Parameters<typeof fastJson>[0]);
      const fits = fitsExactly(jsonSchema);
      // V8's own JSON.stringify is several times faster; it is used only when it writes exactly what the
      // schema-driven serializer would, which then handles everything else (an undeclared key, a value to coerce).
      serialize = (data) => (fits(data) ? JSON.stringify(data) : declared(data));
    } catch {
      return zodSerializerCompiler(route as never);
    }
    compiled.set(schema, serialize);
  }
  return serialize;
}

const compiled = new WeakMap<z.ZodType, (data: unknown) => string>();

type Json = Record<string, unknown>;

const isObjectSchema = (node: Json) => node.type === 'object' && typeof node.properties === 'object';
const isNullSchema = (node: Json) => node.type === 'null';
const typesOf = (node: Json): string[] | null => {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type as string[];
  if (typeof node.const === 'string') return ['string'];
  if (typeof node.const === 'number') return ['number'];
  if (typeof node.const === 'boolean') return ['boolean'];
  return null;
};
const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** One schema accepting what either does, by keys: objects merge their properties; anything else is left open. */
function merged(a: Json, b: Json): Json {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  return unionOf([a, b]);
}

function unionOf(branches: Json[]): Json {
  const nullable = branches.some(isNullSchema);
  const rest = branches.filter((branch) => !isNullSchema(branch));
  if (rest.length > 0 && rest.every(isObjectSchema)) {
    const properties: Record<string, Json> = {};
    for (const branch of rest)
      for (const [key, value] of Object.entries(branch.properties as Record<string, Json>))
        properties[key] = key in properties ? merged(properties[key]!, value) : value;
    return { type: nullable ? ['object', 'null'] : 'object', properties };
  }
  const types = branches.map(typesOf);
  if (types.every((list) => list !== null && list.every((type) => SCALARS.has(type))))
    return { type: [...new Set(types.flat() as string[])] };
  return {};
}

/**
 * fast-json-stringify picks a union's branch by validating the value against each (Ajv, compiled on first use
 * or at start-up: seconds for the run engine's schemas). Only the keys matter here, so each union becomes one
 * schema: objects with every branch's properties (a key declared in no branch is still left out), scalars
 * with every branch's types. zod's closed objects and required lists, which only validation needs, go too.
 */
function forSerializing(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'additionalProperties' || key === 'required' || key === 'enum') continue;
    if (key === 'const') {
      // fast-json-stringify writes a const's value whatever the data holds: keep only its type.
      out.type ??= typesOf({ const: value })?.[0] ?? undefined;
    } else if (key === 'properties' || key === '$defs' || key === 'definitions') {
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, schema]) => [name, forSerializing(schema)]),
      );
    } else if (Array.isArray(value)) {
      out[key] = value.map(forSerializing);
    } else {
      out[key] = typeof value === 'object' && value !== null ? forSerializing(value) : value;
    }
  }
  const union = (out.anyOf ?? out.oneOf) as Json[] | undefined;
  if (!union) return out;
  const { anyOf: _anyOf, oneOf: _oneOf, ...own } = out;
  return { ...own, ...unionOf(union) };
}

/** Whether a value holds nothing JSON.stringify would write differently from the serializer of `schema`. */
type Fit = (value: unknown) => boolean;

const never: Fit = () => false;
const TYPE_CHECKS: Record<string, Fit> = {
  string: (value) => typeof value === 'string',
  // NaN makes the serializer throw; Infinity becomes null in both.
  number: (value) => typeof value === 'number' && !Number.isNaN(value),
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
};
/**
 * Keywords the checks below understand, or that only validation reads (the serializer writes a value the same
 * whatever they say); a schema with any other one (a default, a reference) is never taken for JSON.stringify.
 */
const UNDERSTOOD = new Set([
  'type',
  'properties',
  'items',
  '$schema',
  'title',
  'description',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]);

/**
 * Compiles the check, from a schema as forSerializing leaves it: an open schema takes anything (the serializer
 * writes it with JSON.stringify too); a scalar must already have its type (no coercion); an object must be a
 * plain object whose every key is declared, with fitting values (an undefined one is left out by both); an
 * array must hold fitting items. Anything else is never taken.
 */
export function fitsExactly(node: Json): Fit {
  if (Object.keys(node).some((key) => !UNDERSTOOD.has(key))) return never;
  if (node.type === undefined) return 'properties' in node || 'items' in node ? never : () => true;
  const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
  const checks = types.map((type): Fit => {
    if (type === 'object') return objectFit(node);
    if (type === 'array') return arrayFit(node);
    return TYPE_CHECKS[type] ?? never;
  });
  if (checks.length === 1) return checks[0]!;
  return (value) => checks.some((check) => check(value));
}

function objectFit(node: Json): Fit {
  if (typeof node.properties !== 'object' || node.properties === null) return never;
  const properties = new Map(
    Object.entries(node.properties as Record<string, Json>).map(([key, schema]) => [key, fitsExactly(schema)]),
  );
  return (value) => {
    if (typeof value !== 'object' || value === null) return false;
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const key in value) {
      const check = properties.get(key);
      const item = (value as Record<string, unknown>)[key];
      if (check === undefined || (item !== undefined && !check(item))) return false;
    }
    return true;
  };
}

function arrayFit(node: Json): Fit {
  if (typeof node.items !== 'object' || node.items === null || Array.isArray(node.items)) return never;
  const check = fitsExactly(node.items as Json);
  return (value) => Array.isArray(value) && value.every((item) => check(item));
}
