import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimateCredit, gradeSourceCredit, multiCredit } from '../runs/credit';
import { checkScenarioText } from './check-scenario';
import type { ScenarioStep } from './scenario.schema';
import { resolveNextStep, type StepOutcome } from './step-flow';
import { ESTIMATE_TERMS, RELIABILITY_GRADES } from './step-kinds';

/**
 * For every built-in scenario: what a trainee scores without reading, by always clicking the longest option or
 * by answering at random. Both must fail (below the 70 % pass mark).
 */

/** A guesser: on a choice step, the option picked on this attempt (file index); elsewhere, a credit. */
interface Guesser {
  choose(step: Extract<ScenarioStep, { kind: 'choice' }>, attempt: number): number;
  credit(step: ScenarioStep): number;
}

/** Plays the scenario to the end and returns the percent over the scored steps played (first submissions). */
function play(steps: readonly ScenarioStep[], guesser: Guesser): number {
  let current = steps[0];
  let thousandths = 0;
  let played = 0;
  for (let visits = 0; current && visits < 500; visits++) {
    let outcome: StepOutcome;
    let credit: number;
    if (current.kind === 'choice') {
      const step = current;
      let attempt = 0;
      let pick = guesser.choose(step, attempt);
      credit = pick === step.correct_option ? 1 : (step.options[pick]?.credit ?? 0);
      while (resolveNextStep(steps, step.id, pick).kind === 'retry') pick = guesser.choose(step, ++attempt);
      outcome = pick;
    } else {
      credit = guesser.credit(current);
      outcome = { credit };
    }
    if (current.scored !== false) {
      played += 1;
      thousandths += Math.round(credit * 1000);
    }
    const next = resolveNextStep(steps, current.id, outcome);
    if (next.kind !== 'step') break;
    current = steps.find((step) => step.id === next.stepId);
  }
  return played === 0 ? 0 : thousandths / (10 * played);
}

/** Always the longest option (the next longest after each Retry); a step of another kind earns nothing. */
const longest: Guesser = {
  choose: (step, attempt) => {
    const byLength = step.options.map((option, index) => ({ index, length: option.text.length })).sort((a, b) => b.length - a.length);
    return byLength[attempt % byLength.length]!.index;
  },
  credit: () => 0,
};

/** The mean credit of a uniformly random answer to a step of a kind other than choice. */
function randomCredit(step: ScenarioStep): number {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  switch (step.kind) {
    case 'multi': {
      const correct = step.options.map((option) => option.correct === true);
      const subsets = Array.from({ length: 2 ** correct.length }, (_, mask) => correct.flatMap((_flag, index) => (mask & (1 << index) ? [index] : [])));
      return mean(subsets.map((selected) => multiCredit(correct, selected).credit));
    }
    case 'rank':
      return 0.5;
    case 'estimate':
      return mean(ESTIMATE_TERMS.map((term) => estimateCredit(term, step.accept)));
    case 'grade-source':
      return mean(
        RELIABILITY_GRADES.flatMap((reliability) =>
          [1, 2, 3, 4, 5, 6].map((credibility) => gradeSourceCredit({ reliability, credibility }, { reliability: step.reliability, credibility: step.credibility }).credit),
        ),
      );
    case 'ach':
      return 0.5 / 3 + 0.5 / step.hypotheses.length;
    default:
      return 0;
  }
}

/** A seeded random guesser, so the test gives the same figure every time. */
function randomGuesser(seed: number): Guesser {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  return { choose: (step) => Math.floor(next() * step.options.length), credit: randomCredit };
}

describe('guessing the built-in library', () => {
  const folder = new URL('../../../../content/scenarios/', import.meta.url);
  const files = readdirSync(folder).filter((file) => /\.ya?ml$/.test(file));

  it.each(files)('%s fails a trainee who always picks the longest option, and one who answers at random', (file) => {
    const result = checkScenarioText(readFileSync(new URL(file, folder), 'utf8'), { origin: 'builtin' });
    if (!result.ok) throw new Error(`${file} fails the checker`);
    const { steps } = result.scenario;
    expect(Math.round(play(steps, longest)), 'always the longest option').toBeLessThan(70);
    const runs = Array.from({ length: 200 }, (_, seed) => play(steps, randomGuesser(seed + 1)));
    const average = runs.reduce((sum, percent) => sum + percent, 0) / runs.length;
    expect(Math.round(average), 'at random').toBeLessThan(70);
  });
});
