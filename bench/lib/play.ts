import { ACH_MARKS, CONFIDENCE_LEVELS, ESTIMATE_TERMS, RELIABILITY_GRADES, type PlayerStep } from '@tradecraft/shared';
import type { Trainee } from './trainees';

/** What a trainee does next: start a run, answer the current step, or move on after the answer. */
export type PlayKind = 'start' | 'answer' | 'next';

export interface PlayRequest {
  kind: PlayKind;
  method: 'POST';
  path: string;
  body: string;
  /** The answer sent (answer requests only). */
  answer?: { runId: string; stepId: string };
}

/** An answer the server acknowledged with 200, as its response described the stored decision. */
export interface AckedAnswer {
  runId: string;
  seq: number;
  stepId: string;
  optionIndex: number;
  correct: boolean;
}

export interface PlayCounters {
  start: number;
  answer: number;
  next: number;
  /** Non-2xx answers by status (a 409 after a lost race is expected only when two clients share a run). */
  errors: Record<string, number>;
  completedRuns: number;
}

export const newCounters = (): PlayCounters => ({ start: 0, answer: 0, next: 0, errors: {}, completedRuns: 0 });

interface RunView {
  id: string;
  status: string;
  currentStep: PlayerStep | null;
  timeline?: { seq: number; stepId: string; optionIndex: number; correct: boolean }[];
}

/** A random answer of the step's kind, as a trainee clicking about would give. */
export function randomAnswer(step: PlayerStep, random: () => number): Record<string, unknown> {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const count = step.options.length;
  switch (step.kind) {
    case 'choice':
      return { optionIndex: Math.floor(random() * count) };
    case 'multi':
      return { selected: step.options.flatMap((_option, index) => (random() < 0.5 ? [index] : [])) };
    case 'rank': {
      const order = step.options.map((_option, index) => index);
      for (let index = order.length - 1; index > 0; index--) {
        const other = Math.floor(random() * (index + 1));
        [order[index], order[other]] = [order[other]!, order[index]!];
      }
      return { order };
    }
    case 'estimate':
      return { term: pick(ESTIMATE_TERMS), ...(step.askConfidence ? { confidence: pick(CONFIDENCE_LEVELS) } : {}) };
    case 'grade-source':
      return { reliability: pick(RELIABILITY_GRADES), credibility: 1 + Math.floor(random() * 6) };
    case 'extract':
      return { values: step.fields.map(() => pick(['evil.example.com', '192.0.2.1', 'T1566.001', ''])) };
    case 'ach':
      return {
        marks: step.evidence.map(() => step.hypotheses.map(() => pick(ACH_MARKS))),
        best: Math.floor(random() * step.hypotheses.length),
      };
    case 'write':
      return {
        text: `TLP:AMBER ${pick(['APT29 is likely behind it.', 'It could be anyone.', 'We are very likely facing a crime crew.'])}`,
      };
  }
}

/**
 * One simulated trainee playing as fast as it can: start a run of its scenario, answer the current step with
 * a random answer of its kind, move on (next step, Retry or completion), and start again when the run is over. The state
 * comes from the server's answers only, as the web player's does.
 */
export class TraineePlayer {
  private runId: string | null = null;
  private step: PlayerStep | null = null;
  private phase: PlayKind = 'start';

  constructor(
    readonly trainee: Trainee,
    private readonly counters: PlayCounters,
    private readonly onAck?: (ack: AckedAnswer) => void,
    private readonly random: () => number = Math.random,
  ) {}

  nextRequest(): PlayRequest {
    if (this.phase === 'answer' && this.runId && this.step) {
      return {
        kind: 'answer',
        method: 'POST',
        path: `/api/runs/${this.runId}/answer`,
        body: JSON.stringify({
          stepId: this.step.id,
          timeMs: 1000 + Math.floor(this.random() * 20_000),
          ...randomAnswer(this.step, this.random),
        }),
        answer: { runId: this.runId, stepId: this.step.id },
      };
    }
    if (this.phase === 'next' && this.runId) {
      return { kind: 'next', method: 'POST', path: `/api/runs/${this.runId}/next`, body: '{}' };
    }
    return {
      kind: 'start',
      method: 'POST',
      path: '/api/runs',
      body: JSON.stringify({ scenarioId: this.trainee.scenarioId, startOver: true }),
    };
  }

  /** Takes the server's answer to the request last returned by nextRequest(). */
  onResponse(request: PlayRequest, status: number, body: string): void {
    if (status < 200 || status >= 300) {
      this.counters.errors[status] = (this.counters.errors[status] ?? 0) + 1;
      this.phase = 'start'; // lost track: begin a fresh run, as a person reloading the page would
      return;
    }
    this.counters[request.kind] += 1;
    let parsed: { run?: RunView } | undefined;
    try {
      parsed = JSON.parse(body) as { run?: RunView };
    } catch {
      this.counters.errors['unparsable'] = (this.counters.errors['unparsable'] ?? 0) + 1;
      this.phase = 'start';
      return;
    }
    const run = parsed.run;
    if (request.kind === 'answer') {
      const last = run?.timeline?.at(-1);
      if (this.onAck && request.answer && last) {
        this.onAck({
          runId: request.answer.runId,
          seq: last.seq,
          stepId: last.stepId,
          optionIndex: last.optionIndex,
          correct: last.correct,
        });
      }
      this.phase = 'next';
      return;
    }
    if (!run || run.status !== 'in_progress' || !run.currentStep) {
      if (run && run.status !== 'in_progress') this.counters.completedRuns += 1;
      this.phase = 'start';
      return;
    }
    this.runId = run.id;
    this.step = run.currentStep;
    this.phase = 'answer';
  }
}
