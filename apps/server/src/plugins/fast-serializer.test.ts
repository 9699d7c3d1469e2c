import Fastify from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastSerializerCompiler } from './fast-serializer';

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
});
