import Fastify from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { fastSerializerCompiler, fitsExactly } from './fast-serializer';

const stepSchema = z.object({
  id: z.string(),
  options: z.array(z.object({ text: z.string() })),
  hint: z.string().nullable(),
  result: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('choice'), chosenIndex: z.number().int() }),
    z.object({
      kind: z.literal('write'),
      words: z.number().int(),
      review: z.object({ status: z.string() }).nullable(),
    }),
  ]),
  note: z.string().optional(),
});

// What a handler might carry by mistake: keys of the scenario's answer key on the step and on its options.
const withLeaks = {
  id: 'triage',
  correct_option: 2,
  options: [
    { text: 'Isolate the host', correct: true },
    { text: 'Wait', correct: false },
  ],
  hint: null,
  result: { kind: 'write', words: 12, review: { status: 'pending', graderNotes: 'model answer' }, accepted: ['x'] },
};

async function serializedWith(compiler: typeof fastSerializerCompiler) {
  const app = Fastify();
  app.get('/step', { schema: { response: { 200: stepSchema } }, serializerCompiler: compiler }, async () => withLeaks);
  const response = await app.inject({ method: 'GET', url: '/step' });
  await app.close();
  return response;
}

describe('the fast response serializer', () => {
  it('sends only the declared keys, exactly as the zod serializer does', async () => {
    const fast = await serializedWith(fastSerializerCompiler);
    const zod = await serializedWith(serializerCompiler as typeof fastSerializerCompiler);
    expect(fast.statusCode).toBe(200);
    expect(fast.json()).toEqual(zod.json());
    expect(fast.json()).toEqual({
      id: 'triage',
      options: [{ text: 'Isolate the host' }, { text: 'Wait' }],
      hint: null,
      result: { kind: 'write', words: 12, review: { status: 'pending' } },
    });
    expect(fast.body).not.toMatch(/correct|model answer|accepted/);
  });

  describe("V8's JSON.stringify, taken only when it writes what the schema would", () => {
    afterEach(() => vi.restoreAllMocks());

    const fitting = {
      id: 'triage',
      options: [{ text: 'Isolate the host' }],
      hint: null,
      result: { kind: 'write', words: 12, review: null },
      note: undefined,
    };

    async function stringifiedFor(payload: unknown) {
      const app = Fastify();
      app.get(
        '/step',
        { schema: { response: { 200: stepSchema } }, serializerCompiler: fastSerializerCompiler },
        async () => payload,
      );
      const stringify = vi.spyOn(JSON, 'stringify');
      const response = await app.inject({ method: 'GET', url: '/step' });
      const taken = stringify.mock.calls.some(([value]) => value === payload);
      await app.close();
      return { response, taken };
    }

    it('writes a value with only declared keys of their declared types with JSON.stringify', async () => {
      const { response, taken } = await stringifiedFor(fitting);
      expect(taken).toBe(true);
      expect(response.json()).toEqual({ ...fitting, note: undefined });
      expect(response.body).not.toContain('note');
    });

    it('leaves a value with an undeclared key, however deep, to the schema serializer', async () => {
      const { response, taken } = await stringifiedFor(withLeaks);
      expect(taken).toBe(false);
      expect(response.body).not.toMatch(/correct|model answer|accepted/);
    });

    it('leaves a value of another type than declared to the schema serializer, which coerces it', async () => {
      const { response, taken } = await stringifiedFor({
        ...fitting,
        result: { kind: 'write', words: '12', review: null },
      });
      expect(taken).toBe(false);
      expect(response.json().result.words).toBe(12);
    });

    it('checks scalars by their declared type: integers, NaN, nulls and class instances', () => {
      const node = (type: unknown) => fitsExactly({ type });
      expect(node('integer')(3)).toBe(true);
      expect(node('integer')(3.5)).toBe(false);
      expect(node('number')(Number.NaN)).toBe(false);
      expect(node('number')(Number.POSITIVE_INFINITY)).toBe(true);
      expect(node(['string', 'null'])(null)).toBe(true);
      expect(node('string')(null)).toBe(false);
      const object = fitsExactly({ type: 'object', properties: { at: { type: 'string' } } });
      expect(object({ at: 'now' })).toBe(true);
      expect(object(new Date())).toBe(false);
      expect(fitsExactly({ type: 'string', default: 'x' })('y')).toBe(false);
    });
  });
});
