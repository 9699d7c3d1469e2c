import type { FastifyInstance } from 'fastify';
import type { DbOrTrx } from '../db/database';

/** The run and the trainee a journal entry is about, as the run engine knows them when it writes the entry. */
export interface JournalRun {
  id: string;
  scenarioId: string;
  scenarioName: string;
  versionId: string | null;
  startedAt: string;
  user: { id: string; email: string; firstName: string; lastName: string };
}

/** The step of an answer, as the scenario file describes it. */
export interface JournalStep {
  id: string;
  kind: string;
  /** The step's title, as the player shows it. */
  prompt: string;
  technique: string | null;
  skill: string | null;
  scored: boolean;
}

/** What the trainee's first answer to a step earned, decided by the run engine (docs/scoring.md). */
export interface JournalAnswer {
  /** The answer in words (the options chosen, the estimate, the grade, the text). */
  response: string;
  /** Credit the answer itself earned, 0 to 1000, before any hint's cost. */
  rawThousandths: number;
  /** Credit the run counted, 0 to 1000, after a hint's cost. */
  earnedThousandths: number;
  hintUsed: boolean;
  /** Time the trainee spent on the step, as the browser measured it; null when unknown. */
  timeMs: number | null;
  /** A written answer an instructor still grades. */
  awaitingReview: boolean;
}

export type RunJournalEntry =
  | { kind: 'started'; run: JournalRun; at: string }
  | { kind: 'resumed'; run: JournalRun; at: string }
  | { kind: 'answered'; run: JournalRun; at: string; step: JournalStep; answer: JournalAnswer }
  | {
      kind: 'completed';
      run: JournalRun;
      at: string;
      /** The run's score percent (progress-rules' runScorePercent), null when unknown. */
      scorePercent: number | null;
      /** Written answers still waiting for an instructor: the result is not decided yet. */
      pendingReviews: number;
    }
  | { kind: 'ended'; run: JournalRun; at: string };

type JournalWriter = (db: DbOrTrx, entry: RunJournalEntry) => Promise<void>;

/**
 * What the run engine writes down about a run (started, each first answer, completed, ended) inside the very
 * transaction that changes the run, for a feature that must not lose any of it: the xAPI outbox
 * (docs/interoperability.md, "xAPI"). Unlike run-events.ts, whose listeners run after the commit, a writer here
 * runs in the transaction: the entry and the run's change commit together or not at all. With no writer (xAPI
 * off) the run engine skips the work and its queries stay as they were.
 */
export class RunJournal {
  private writer: JournalWriter | undefined;

  /** A writer is set: the run engine wraps its changes in a transaction and records each entry. */
  get active(): boolean {
    return this.writer !== undefined;
  }

  use(writer: JournalWriter): void {
    if (this.writer) throw new Error('The run journal has a writer already.');
    this.writer = writer;
  }

  async record(db: DbOrTrx, entry: RunJournalEntry): Promise<void> {
    if (this.writer) await this.writer(db, entry);
  }
}

export function registerRunJournal(app: FastifyInstance): void {
  app.decorate('runJournal', new RunJournal());
}

declare module 'fastify' {
  interface FastifyInstance {
    runJournal: RunJournal;
  }
}
