import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerRequestTurns } from './request-turns';

/** A Fastify app whose one route notes the event-loop turn (counted by setImmediate) each request started in. */
async function appCountingTurns(perTurn: number) {
  const app = Fastify();
  registerRequestTurns(app, perTurn);
  const started: { id: number; turn: number }[] = [];
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn += 1;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  app.get('/work/:id', (request) => {
    started.push({ id: Number((request.params as { id: string }).id), turn });
    return { ok: true };
  });
  await app.ready();
  return { app, started, stop: () => (ticking = false), turnNow: () => turn };
}

describe('request turns', () => {
  it('starts at most the given number of requests in one turn of the event loop', async () => {
    const { app, started, stop } = await appCountingTurns(3);
    const answers = await Promise.all(Array.from({ length: 12 }, (_value, id) => app.inject(`/work/${id}`)));
    stop();
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const perTurn = new Map<number, number>();
    for (const { turn } of started) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(3);
    expect(perTurn.size).toBeGreaterThanOrEqual(4);
  });

  it('lets waiting requests start first come, first served', async () => {
    const { app, started, stop } = await appCountingTurns(2);
    await Promise.all(Array.from({ length: 9 }, (_value, id) => app.inject(`/work/${id}`)));
    stop();
    expect(started.map(({ id }) => id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('never makes a lone request wait for another turn', async () => {
    const { app, started, stop, turnNow } = await appCountingTurns(1);
    for (let id = 0; id < 5; id += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1)); // the next request comes a turn later
      const sentIn = turnNow();
      await app.inject(`/work/${id}`);
      expect(started.at(-1)).toEqual({ id, turn: sentIn });
    }
    stop();
  });
});
