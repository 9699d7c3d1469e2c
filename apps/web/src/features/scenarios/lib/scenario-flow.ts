import { resolveNextStep, type AdminScenarioStep } from '@tradecraft/shared';

/** Where one option leads, for the read-only preview and the branch diagram. */
export type OptionDestination =
  | { kind: 'step'; stepIndex: number; /** next_step was absent: the following step in file order */ implicit: boolean }
  | { kind: 'retry' }
  | { kind: 'finish' };

export function optionDestination(
  steps: readonly AdminScenarioStep[],
  stepIndex: number,
  optionIndex: number,
): OptionDestination {
  const step = steps[stepIndex];
  const option = step?.options[optionIndex];
  if (!step || !option) return { kind: 'finish' };
  const next = resolveNextStep(steps, step.id, optionIndex);
  if (next.kind !== 'step') return next;
  return {
    kind: 'step',
    stepIndex: steps.findIndex((candidate) => candidate.id === next.stepId),
    implicit: option.next_step === undefined || option.next_step !== next.stepId,
  };
}

export const stepLabel = (steps: readonly AdminScenarioStep[], index: number) =>
  `Step ${index + 1}: ${steps[index]?.title ?? ''}`;

/** 'Step 3: Contain' / 'next step (Step 2: Scope)' / 'Retry (stays on this step)' / 'finish'. */
export function describeDestination(steps: readonly AdminScenarioStep[], destination: OptionDestination): string {
  switch (destination.kind) {
    case 'retry':
      return 'Retry (stays on this step)';
    case 'finish':
      return 'finish';
    case 'step':
      return destination.implicit
        ? `next step (${stepLabel(steps, destination.stepIndex)})`
        : stepLabel(steps, destination.stepIndex);
  }
}

export type EdgeTarget = number | 'retry' | 'finish';

/** One arrow of the branch diagram: the options of a step that lead to the same place. */
export interface FlowEdge {
  from: number;
  to: EdgeTarget;
  /** The correct option leads here. */
  correct: boolean;
  optionIndexes: number[];
}

export function flowEdges(steps: readonly AdminScenarioStep[]): FlowEdge[] {
  const edges: FlowEdge[] = [];
  steps.forEach((step, stepIndex) => {
    const byTarget = new Map<EdgeTarget, FlowEdge>();
    step.options.forEach((_option, optionIndex) => {
      const destination = optionDestination(steps, stepIndex, optionIndex);
      const to: EdgeTarget = destination.kind === 'step' ? destination.stepIndex : destination.kind;
      let edge = byTarget.get(to);
      if (!edge) {
        edge = { from: stepIndex, to, correct: false, optionIndexes: [] };
        byTarget.set(to, edge);
        edges.push(edge);
      }
      edge.optionIndexes.push(optionIndex);
      if (optionIndex === step.correct_option) edge.correct = true;
    });
  });
  return edges;
}

/** The steps an all-correct run passes through, in order (stops at a loop, which the checker refuses anyway). */
export function correctPath(steps: readonly AdminScenarioStep[]): number[] {
  const path: number[] = [];
  let current = steps.length > 0 ? 0 : -1;
  while (current >= 0 && !path.includes(current)) {
    path.push(current);
    const step = steps[current];
    if (!step) break;
    const destination = optionDestination(steps, current, step.correct_option);
    current = destination.kind === 'step' ? destination.stepIndex : -1;
  }
  return path;
}
