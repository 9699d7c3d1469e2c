import { ESTIMATE_TERMS, hasShownOptions, shownOrder, termDistance, type ScenarioStep } from '@tradecraft/shared';

// Answers to any step, right or wrong, as a trainee's browser would post them (shown indexes), for the tests
// that play whole scenarios through the API.

/** The answer fields (without stepId and timeMs) of a right or a wrong answer to `step` in run `runId`. */
export function answerFor(runId: string, step: ScenarioStep, quality: 'right' | 'wrong'): Record<string, unknown> {
  const order = hasShownOptions(step)
    ? shownOrder(runId, step.id, step.options.length)
    : step.kind === 'ach'
      ? shownOrder(runId, step.id, step.hypotheses.length)
      : [];
  const shown = (file: number) => order.indexOf(file);
  const right = quality === 'right';
  switch (step.kind) {
    case 'choice': {
      if (right) return { optionIndex: shown(step.correct_option) };
      const wrong = step.options.findIndex((option, index) => index !== step.correct_option && !option.credit);
      return { optionIndex: shown(wrong < 0 ? (step.correct_option === 0 ? 1 : 0) : wrong) };
    }
    case 'multi':
      return {
        selected: step.options.flatMap((option, file) => ((option.correct === true) === right ? [shown(file)] : [])),
      };
    case 'rank': {
      const files = step.options.map((_option, file) => file);
      return { order: (right ? files : files.reverse()).map(shown) };
    }
    case 'estimate': {
      const term = right
        ? step.accept[0]!
        : [...ESTIMATE_TERMS].sort((a, b) => termDistance(b, step.accept) - termDistance(a, step.accept))[0]!;
      return { term, ...(step.ask_confidence ? { confidence: 'moderate' } : {}) };
    }
    case 'grade-source':
      if (right) return { reliability: step.reliability, credibility: step.credibility };
      return step.reliability === 'F' ? { reliability: 'A', credibility: 1 } : { reliability: 'F', credibility: 6 };
    case 'extract':
      return { values: step.fields.map((field) => (right ? field.accept[0]! : 'not-it')) };
    case 'ach':
      // Columns in the run's order of the hypotheses, as the player shows them.
      return {
        marks: step.evidence.map((row) =>
          order.map((file) => {
            const mark = row.marks[file]!;
            return right ? mark : mark === 'C' ? 'I' : 'C';
          }),
        ),
        best: shown(right ? step.best : (step.best + 1) % step.hypotheses.length),
      };
    case 'write':
      return { text: right ? step.model_answer : '' };
  }
}
