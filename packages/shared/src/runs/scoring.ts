/** Correct answers per ATT&CK technique id, as a run keeps them. */
export type TechniqueCounts = Record<string, number>;

export interface RunScore {
  score: number;
  techniqueCounts: TechniqueCounts;
}

/**
 * Scoring (docs/scenario-format.md, "Scoring"): a correct answer adds 1 to the score and, when the step has a
 * technique, 1 to that technique's count. A wrong answer changes nothing.
 */
export function scoreAnswer(current: RunScore, answer: { correct: boolean; technique?: string | null | undefined }): RunScore {
  if (!answer.correct) return current;
  const techniqueCounts = { ...current.techniqueCounts };
  const technique = answer.technique?.trim();
  if (technique) techniqueCounts[technique] = (techniqueCounts[technique] ?? 0) + 1;
  return { score: current.score + 1, techniqueCounts };
}

/** The progress bar's score percent: score over the scenario's step count, rounded, at most 100. */
export function scorePercent(score: number, stepCount: number): number {
  if (stepCount <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((score / stepCount) * 100)));
}
