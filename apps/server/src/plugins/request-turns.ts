import type { FastifyInstance } from 'fastify';

/** Requests that start in one turn of the event loop before the rest wait for the next turn. */
export const REQUESTS_PER_TURN = 8;

/**
 * Keeps every turn of the event loop short, so a busy server still takes new connections (docs/operations.md,
 * "Connections under load").
 *
 * Node (libuv 1.45 and later) accepts one new connection per turn of its event loop. On SQLite a request runs
 * from its first byte to its answer within the turn that read it, so when hundreds of connections each have a
 * request waiting, one turn runs them all: half a second, and one accept. A class of trainees opening the app
 * at once then waits seconds for the server to take their connections, long enough for some clients to give up.
 *
 * Here at most `perTurn` requests start in a turn; the others wait, first come first served, for the next turns
 * (a setImmediate callback lets `perTurn` more start, then the loop polls its sockets and accepts again). A quiet
 * server never makes a request wait: the queue only forms when more than `perTurn` requests arrive in one turn.
 */
export function registerRequestTurns(app: FastifyInstance, perTurn = REQUESTS_PER_TURN): void {
  const waiting: (() => void)[] = [];
  let startedThisTurn = 0;
  let turnScheduled = false;

  const nextTurn = () => {
    turnScheduled = false;
    startedThisTurn = 0;
    while (startedThisTurn < perTurn && waiting.length > 0) {
      startedThisTurn += 1;
      waiting.shift()!();
    }
    // Counted starts (or requests still waiting) need a later turn to reset the count (or let them start).
    if (startedThisTurn > 0) scheduleTurn();
  };
  const scheduleTurn = () => {
    if (turnScheduled) return;
    turnScheduled = true;
    setImmediate(nextTurn);
  };

  app.addHook('onRequest', (_request, _reply, done) => {
    if (waiting.length === 0 && startedThisTurn < perTurn) {
      startedThisTurn += 1;
      scheduleTurn();
      done();
      return;
    }
    waiting.push(done);
    scheduleTurn();
  });
}
