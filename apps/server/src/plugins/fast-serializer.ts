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
      const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
      serialize = fastJson(forSerializing(jsonSchema) as Parameters<typeof fastJson>[0]);
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
