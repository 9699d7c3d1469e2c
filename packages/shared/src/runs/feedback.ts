/** What the trainee reads after answering (docs/scenario-format.md, "Feedback"), decided on the server. */
export const CORRECT_FEEDBACK = 'Correct!';

export function incorrectFeedback(correctOptionText: string): string {
  return `Incorrect. The correct answer was: "${correctOptionText}"`;
}

export interface FeedbackStep {
  options: ReadonlyArray<{ text: string; feedback?: string | undefined }>;
  correct_option: number;
}

export interface AnswerVerdict {
  correct: boolean;
  /** The headline, then the chosen option's own explanation on the next line when it has one. */
  feedback: string;
}

/**
 * Decides a chosen option: 'Correct!' or 'Incorrect. The correct answer was: "{text}"', followed by
 * the option's own explanation when the author wrote one.
 *
 * @throws RangeError when the option does not exist; callers validate input first.
 */
export function judgeAnswer(step: FeedbackStep, optionIndex: number): AnswerVerdict {
  const option = step.options[optionIndex];
  if (!option) throw new RangeError(`No option ${optionIndex}`);
  const correct = optionIndex === step.correct_option;
  const headline = correct ? CORRECT_FEEDBACK : incorrectFeedback(step.options[step.correct_option]?.text ?? '');
  const explanation = option.feedback?.trim();
  return { correct, feedback: explanation ? `${headline}\n${explanation}` : headline };
}
