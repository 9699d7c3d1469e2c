/**
 * The schedule of an outbox's sender (xAPI statements, mail): a pass now and then (`pollMs`), one shortly after new
 * work is written (`soon`, once its transaction has committed), and never two passes at once in a process: a pass
 * asked for while one runs waits for it. Passes of several processes share the outbox through the outbox's own
 * leases. `stop` waits for the pass in flight.
 */
export class DeliveryLoop {
  private timer: NodeJS.Timeout | undefined;
  private soonTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly pass: (now: Date) => Promise<number>,
    private readonly onError: (error: unknown) => void,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  soon(): void {
    if (this.stopped || this.soonTimer) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = undefined;
      this.kick();
    }, 100);
    this.soonTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.soonTimer);
    await this.running;
  }

  /** Runs one pass at `now` after any pass in flight; returns what that pass delivered. */
  async deliverDue(now: Date = new Date()): Promise<number> {
    while (this.running) await this.running;
    const pass = this.pass(now);
    const running = pass.then(
      () => undefined,
      () => undefined,
    );
    this.running = running;
    void running.finally(() => {
      if (this.running === running) this.running = undefined;
    });
    return pass;
  }

  private kick(): void {
    if (this.stopped || this.running) return;
    this.deliverDue().catch(this.onError);
  }
}
