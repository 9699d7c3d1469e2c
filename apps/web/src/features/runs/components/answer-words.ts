import { ESTIMATE_TERM_INFO, type StepResult } from '@tradecraft/shared';

/** The key of a step in words, from the result the server revealed (for the timeline and the end screen). */
export function keyInWords(result: StepResult): string {
  switch (result.kind) {
    case 'choice':
      return result.correctText;
    case 'multi':
      return result.options
        .filter((option) => option.correct)
        .map((option) => option.text)
        .join('; ');
    case 'rank':
      return result.items.map((item, index) => `${index + 1}. ${item.text}`).join('  ');
    case 'estimate':
      return result.accept.map((term) => ESTIMATE_TERM_INFO[term].label).join(' or ');
    case 'grade-source':
      return `${result.reliability.key}${result.credibility.key}`;
    case 'extract':
      return result.fields.map((field) => `${field.label}: ${field.accepted[0] ?? ''}`).join('; ');
    case 'ach':
      return `Most likely: ${result.hypotheses[result.best.key] ?? ''} (${result.cellCount} cells marked)`;
    case 'write':
      return result.review?.status === 'graded' && result.review.points
        ? `Rubric: ${result.review.points.reduce((sum, points) => sum + points, 0)} of ${result.rubric.reduce((sum, criterion) => sum + criterion.points, 0)} points`
        : 'Graded by an instructor against the rubric';
  }
}
