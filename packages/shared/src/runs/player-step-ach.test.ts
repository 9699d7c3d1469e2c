import { describe, expect, it } from 'vitest';
import { checkScenario } from '../scenarios/check-scenario';
import { everyKindScenario } from '../scenarios/every-kind.fixture';
import { playerStepOf, shownOptionOrder } from './player-step';
import { shownOrder } from './shuffle';

const checked = checkScenario(everyKindScenario());
if (!checked.ok) throw new Error('the fixture must pass');
const scenario = checked.scenario;
const weigh = scenario.steps.find((step) => step.id === 'weigh')!;

describe('an ACH step as the trainee sees it', () => {
  it("shows the hypotheses in the run's own order, the same on every load", () => {
    const seeds = Array.from({ length: 40 }, (_, index) => `run-${index}`);
    const shown = seeds.map(
      (seed) => playerStepOf({ orderSeed: seed, hintOpened: false }, scenario, weigh) as { hypotheses: string[] },
    );
    for (const [index, step] of shown.entries()) {
      const order = shownOrder(seeds[index]!, 'weigh', 2);
      expect(shownOptionOrder(seeds[index]!, weigh)).toEqual(order);
      expect(step.hypotheses).toEqual(order.map((file) => ['Criminal', 'State'][file]));
    }
    // Both orders occur, so the file order (the author's habit) is not what every run sees.
    expect(new Set(shown.map((step) => step.hypotheses.join('|'))).size).toBe(2);
  });
});
