import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** A run stopped changing its result: it finished (completed or ended), or an instructor graded an answer of it. */
export interface RunSettled {
  runId: string;
  userId: string;
  scenarioId: string;
}

type Listener = (event: RunSettled) => Promise<void>;

/**
 * What the runs and reviews features tell the rest of the server, without the others importing them: a feature
 * that reacts to a run's outcome (training programmes' certificates, docs/programmes.md) listens here. Listeners
 * run after the run's own change is committed and before its response goes out, so the caller's next read sees
 * their work; a listener that fails is logged and never fails the run's request.
 */
export class RunEvents {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly log: FastifyBaseLogger) {}

  onSettled(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async settled(event: RunSettled): Promise<void> {
    await Promise.all(
      [...this.listeners].map((listener) =>
        listener(event).catch((error: unknown) =>
          this.log.error({ err: error, runId: event.runId }, 'a listener of a settled run failed'),
        ),
      ),
    );
  }
}

export function registerRunEvents(app: FastifyInstance): void {
  app.decorate('runEvents', new RunEvents(app.log));
}

declare module 'fastify' {
  interface FastifyInstance {
    runEvents: RunEvents;
  }
}
