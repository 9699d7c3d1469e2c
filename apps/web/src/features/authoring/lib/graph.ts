import { Graph, layout } from '@dagrejs/dagre';
import { bestPath, type ScenarioStep, type StepKind } from '@tradecraft/shared';
import type { DraftStep } from './draft';

// The scenario as a graph: one node per step (plus Finish), one edge per way on. Edges that share a source and
// a target (two options leading to the same step) are drawn as one edge listing them. Node ids are step
// indexes, so a draft with a missing or repeated id still draws.

export const FINISH_NODE = 'finish';
export const NODE_WIDTH = 230;
export const NODE_HEIGHT = 72;

export const stepNodeId = (index: number) => `step-${index}`;

export type StepNodeData = {
  index: number;
  stepId: string;
  title: string;
  kind: StepKind;
  scored: boolean;
  isStart: boolean;
  /** Off the best path (the best answer at every step): a consequence or a wrong turn. */
  branch: boolean;
  problemCount: number;
};

export type EdgeRole =
  /** A choice option (correct or not). */
  | 'option'
  /** A choice option with `next_step: null`: stay and answer again. */
  | 'retry'
  /** Kinds other than choice: the way on. */
  | 'next'
  /** Kinds other than choice: the weak answer's consequence (`below`). */
  | 'below';

export type GraphEdgeSpec = {
  id: string;
  source: string;
  target: string;
  role: EdgeRole;
  /** The lines of the label (one per option sharing the edge). */
  labels: string[];
  /** On the best path (a correct option, or the way on of a right answer). */
  best: boolean;
};

export interface StepGraph {
  nodes: StepNodeData[];
  edges: GraphEdgeSpec[];
}

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The best path's step indexes, tolerating an unfinished draft (it stops where the flow cannot be followed). */
function bestPathIndexes(steps: readonly DraftStep[]): Set<number> {
  try {
    const path = bestPath(steps as unknown as ScenarioStep[]);
    const indexById = firstIndexById(steps);
    return new Set(path.stepIds.map((id) => indexById.get(id)).filter((index) => index !== undefined));
  } catch {
    return new Set(steps.length > 0 ? [0] : []);
  }
}

function firstIndexById(steps: readonly DraftStep[]): Map<string, number> {
  const indexById = new Map<string, number>();
  steps.forEach((step, index) => {
    if (!indexById.has(step.id)) indexById.set(step.id, index);
  });
  return indexById;
}

/** Where an absent or unknown reference goes: the following step, else Finish. */
function followingNode(steps: readonly DraftStep[], index: number): string {
  return index + 1 < steps.length ? stepNodeId(index + 1) : FINISH_NODE;
}

export function buildGraph(steps: readonly DraftStep[], problemCounts: ReadonlyMap<number, number>): StepGraph {
  const indexById = firstIndexById(steps);
  const onBestPath = bestPathIndexes(steps);
  const targetOf = (index: number, reference: string | undefined) => {
    const target = reference === undefined ? undefined : indexById.get(reference);
    return target === undefined ? followingNode(steps, index) : stepNodeId(target);
  };

  const nodes: StepNodeData[] = steps.map((step, index) => ({
    index,
    stepId: step.id,
    title: step.title,
    kind: step.kind,
    scored: step.scored !== false,
    isStart: index === 0,
    branch: !onBestPath.has(index),
    problemCount: problemCounts.get(index) ?? 0,
  }));

  const edges = new Map<string, GraphEdgeSpec>();
  const addEdge = (spec: Omit<GraphEdgeSpec, 'id' | 'labels'> & { label: string | null }) => {
    const id = `${spec.source}->${spec.target}:${spec.role === 'retry' ? 'retry' : spec.role === 'below' ? 'below' : 'on'}`;
    const existing = edges.get(id);
    if (existing) {
      if (spec.label) existing.labels.push(spec.label);
      existing.best ||= spec.best;
      return;
    }
    const { label, ...rest } = spec;
    edges.set(id, { ...rest, id, labels: label ? [label] : [] });
  };

  steps.forEach((step, index) => {
    const source = stepNodeId(index);
    const stepOnPath = onBestPath.has(index);
    if (step.kind === 'choice') {
      (step.options ?? []).forEach((option, optionIndex) => {
        const correct = optionIndex === step.correct_option;
        const label = `${optionIndex + 1}. ${shorten(option.text.trim() || '(no text)', 28)}${correct ? ' ✓' : ''}`;
        if (option.next_step === null) {
          addEdge({ source, target: source, role: 'retry', label: `Retry: ${label}`, best: false });
        } else {
          const target = targetOf(index, option.next_step);
          addEdge({ source, target, role: 'option', label, best: stepOnPath && correct });
        }
      });
      return;
    }
    addEdge({ source, target: targetOf(index, step.next_step), role: 'next', label: null, best: stepOnPath });
    if (step.below) {
      addEdge({
        source,
        target: targetOf(index, step.below.next_step),
        role: 'below',
        label: `below ${step.below.credit}`,
        best: false,
      });
    }
  });

  return { nodes, edges: [...edges.values()] };
}

/**
 * What the layout depends on: the steps and where each way leads. Texts, problems and fields do not move
 * nodes, so typing never re-runs the layout.
 */
export function structureKey(graph: StepGraph): string {
  return `${graph.nodes.length}|${graph.edges
    .map(
      (edge) =>
        `${edge.source}>${edge.target}${edge.role === 'below' ? '~' : ''}${edge.best ? '*' : ''}${edge.labels.length}`,
    )
    .join(',')}`;
}

export interface Position {
  x: number;
  y: number;
}

export interface GraphLayout {
  /** Each node's top-left corner. */
  nodes: Map<string, Position>;
  /** Each edge's route (dagre's bend points) and where its label sits (room for it is made in the layout). */
  edges: Map<string, { points: Position[]; label: Position | null }>;
}

export const LABEL_WIDTH = 190;
const LABEL_LINE_HEIGHT = 15;

/** Top-to-bottom layout (dagre); the best path weighs more, so it runs straight and branches sit beside it. */
export function layoutGraph(graph: StepGraph): GraphLayout {
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 40, ranksep: 50, edgesep: 20, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(stepNodeId(node.index), { width: NODE_WIDTH, height: NODE_HEIGHT });
  const hasFinish = graph.edges.some((edge) => edge.target === FINISH_NODE);
  if (hasFinish) g.setNode(FINISH_NODE, { width: 120, height: 40 });
  for (const edge of graph.edges) {
    if (edge.source === edge.target) continue;
    const labelled = edge.labels.length > 0;
    g.setEdge(
      edge.source,
      edge.target,
      {
        weight: edge.best ? 8 : 1,
        minlen: 1,
        ...(labelled
          ? { width: LABEL_WIDTH, height: edge.labels.length * LABEL_LINE_HEIGHT + 8, labelpos: 'c' as const }
          : {}),
      },
      edge.id,
    );
  }
  layout(g);
  const nodes = new Map<string, Position>();
  for (const id of g.nodes()) {
    const node = g.node(id);
    // dagre gives centres; xyflow places nodes by their top-left corner.
    nodes.set(id, { x: node.x - node.width / 2, y: node.y - node.height / 2 });
  }
  const edges = new Map<string, { points: Position[]; label: Position | null }>();
  for (const edge of graph.edges) {
    if (edge.source === edge.target) continue;
    const laid = g.edge(edge.source, edge.target, edge.id) as
      { points?: Position[]; x?: number; y?: number } | undefined;
    if (!laid) continue;
    edges.set(edge.id, {
      points: (laid.points ?? []).map((point) => ({ x: point.x, y: point.y })),
      label: edge.labels.length > 0 && laid.x !== undefined && laid.y !== undefined ? { x: laid.x, y: laid.y } : null,
    });
  }
  return { nodes, edges };
}
