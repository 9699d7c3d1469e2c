/**
 * The step counter's words: the step counted along the trainee's own path (the server's stepNumber), and what is
 * left on the best path from here when the server knows it. Never the step's place in the file, which says
 * nothing on a branching scenario.
 */
export function stepCounterText(stepNumber: number, stepsLeftOnBestPath: number | null): string {
  const step = `Step ${stepNumber}`;
  if (stepsLeftOnBestPath === null || stepsLeftOnBestPath < 1) return step;
  return `${step} · ${stepsLeftOnBestPath} left on the best path`;
}
