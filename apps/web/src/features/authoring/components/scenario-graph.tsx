import '@xyflow/react/dist/style.css';
import { STEP_KIND_LABELS } from '@tradecraft/shared';
import { Badge, Group, Text, useComputedColorScheme } from '@mantine/core';
import { IconAlertTriangle, IconFlag } from '@tabler/icons-react';
import {
  BaseEdge,
  Controls,
  EdgeLabelRenderer,
  Handle,
  MiniMap,
  Position,
  ReactFlow,
  ReactFlowProvider,
  getBezierPath,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeProps,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { DraftStep } from '../lib/draft';
import {
  buildGraph,
  FINISH_NODE,
  layoutGraph,
  NODE_HEIGHT,
  NODE_WIDTH,
  stepNodeId,
  structureKey,
  type GraphEdgeSpec,
  type StepNodeData,
} from '../lib/graph';
import classes from './scenario-graph.module.css';
import { KIND_COLORS } from './step-kind-look';

type StepNode = Node<StepNodeData & { selected: boolean }, 'step'>;
type FinishNode = Node<Record<string, never>, 'finish'>;
type EdgeRoute = { points: { x: number; y: number }[]; label: { x: number; y: number } | null };
type FlowEdge = Edge<GraphEdgeSpec & { route: EdgeRoute | null }, 'way'>;

/** A smooth path through dagre's bend points (so edges go round nodes, not through them). */
function routedPath(points: { x: number; y: number }[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  let path = `M ${first.x} ${first.y}`;
  for (let i = 0; i < rest.length - 1; i++) {
    const bend = rest[i]!;
    const after = rest[i + 1]!;
    path += ` Q ${bend.x} ${bend.y} ${(bend.x + after.x) / 2} ${(bend.y + after.y) / 2}`;
  }
  const last = rest.at(-1);
  return last ? `${path} L ${last.x} ${last.y}` : path;
}

const StepNodeView = memo(function StepNodeView({ data }: NodeProps<StepNode>) {
  const color = KIND_COLORS[data.kind];
  return (
    <div
      className={classes.node}
      data-branch={data.branch || undefined}
      data-selected={data.selected || undefined}
      data-problems={data.problemCount > 0 || undefined}
      style={{
        ['--kind-color' as string]: `var(--mantine-color-${color}-filled)`,
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
      }}
    >
      <Handle type="target" position={Position.Top} className={classes.handle} />
      <Group gap={6} wrap="nowrap" justify="space-between">
        <Text size="xs" fw={700} className={classes.kind} truncate>
          {STEP_KIND_LABELS[data.kind]}
          {data.scored ? '' : ' · not scored'}
        </Text>
        {data.problemCount > 0 && (
          <Badge
            size="xs"
            color="red"
            variant="filled"
            leftSection={<IconAlertTriangle size={10} aria-hidden />}
            className={classes.problemBadge}
          >
            {data.problemCount}
          </Badge>
        )}
      </Group>
      <Text size="sm" fw={600} lineClamp={1}>
        {data.title.trim() || '(untitled step)'}
      </Text>
      <Text size="xs" ff="monospace" c="dimmed" truncate>
        {data.isStart ? '▶ ' : ''}
        {data.stepId || '(no id)'}
      </Text>
      <Handle type="source" position={Position.Bottom} className={classes.handle} />
    </div>
  );
});

function FinishNodeView() {
  return (
    <div className={classes.finish}>
      <Handle type="target" position={Position.Top} className={classes.handle} />
      <IconFlag size={14} aria-hidden /> Finish
    </div>
  );
}

/** One way on: a curve to the target (a loop beside the node for Retry), its label in HTML so it can wrap. */
function WayEdge({
  id,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  data,
  markerEnd,
}: EdgeProps<FlowEdge>) {
  const loop = data?.source === data?.target;
  let path: string;
  let labelX: number;
  let labelY: number;
  if (loop) {
    // From the bottom handle out to the right and back into the top handle.
    const out = NODE_WIDTH * 0.75;
    path = `M ${sourceX} ${sourceY} C ${sourceX + out} ${sourceY + 60}, ${targetX + out} ${targetY - 60}, ${targetX} ${targetY}`;
    labelX = sourceX + out * 0.8;
    labelY = (sourceY + targetY) / 2;
  } else if (data?.route && data.route.points.length > 2) {
    path = routedPath([{ x: sourceX, y: sourceY }, ...data.route.points.slice(1, -1), { x: targetX, y: targetY }]);
    [, labelX, labelY] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  } else {
    [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  }
  if (!loop && data?.route?.label) {
    labelX = data.route.label.x;
    labelY = data.route.label.y;
  }
  const role = data?.role ?? 'next';
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        className={classes.edge}
        data-role={role}
        data-best={data?.best || undefined}
      />
      {data && data.labels.length > 0 && (
        <EdgeLabelRenderer>
          <div
            className={`${classes.edgeLabel} nodrag nopan`}
            data-role={role}
            data-best={data.best || undefined}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            {data.labels.map((label, index) => (
              <div key={index}>{label}</div>
            ))}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

const nodeTypes = { step: StepNodeView, finish: FinishNodeView };
const edgeTypes = { way: WayEdge };

interface ScenarioGraphProps {
  steps: readonly DraftStep[];
  problemCounts: ReadonlyMap<number, number>;
  selectedIndex: number | null;
  onSelect: (index: number) => void;
  /** A way drawn by dragging from one step to another (the editor decides which field it sets). */
  onConnect: (sourceIndex: number, targetIndex: number) => void;
}

const indexOfNode = (id: string | null | undefined) =>
  id && id.startsWith('step-') ? Number(id.slice('step-'.length)) : null;

function GraphView({ steps, problemCounts, selectedIndex, onSelect, onConnect }: ScenarioGraphProps) {
  const scheme = useComputedColorScheme('light');
  const graph = useMemo(() => buildGraph(steps, problemCounts), [steps, problemCounts]);
  const key = structureKey(graph);
  // The layout follows the structure only: typing a title or a field never moves a node.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const laid = useMemo(() => layoutGraph(graph), [key]);
  const positions = laid.nodes;

  const nodes = useMemo<(StepNode | FinishNode)[]>(() => {
    const stepNodes: StepNode[] = graph.nodes.map((node) => {
      const id = stepNodeId(node.index);
      return {
        id,
        type: 'step',
        position: positions.get(id) ?? { x: 0, y: node.index * (NODE_HEIGHT + 40) },
        data: { ...node, selected: node.index === selectedIndex },
        selected: node.index === selectedIndex,
        draggable: false,
        ariaLabel: `${STEP_KIND_LABELS[node.kind]} step ${node.stepId || '(no id)'}: ${node.title || 'untitled'}${
          node.problemCount > 0 ? `, ${node.problemCount} problem${node.problemCount === 1 ? '' : 's'}` : ''
        }`,
      };
    });
    const finish = positions.get(FINISH_NODE);
    return finish
      ? [
          ...stepNodes,
          {
            id: FINISH_NODE,
            type: 'finish',
            position: finish,
            data: {},
            draggable: false,
            selectable: false,
            focusable: false,
          },
        ]
      : stepNodes;
  }, [graph.nodes, positions, selectedIndex]);

  const edges = useMemo<FlowEdge[]>(
    () =>
      graph.edges.map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        type: 'way',
        data: { ...edge, route: laid.edges.get(edge.id) ?? null },
        markerEnd: { type: 'arrowclosed' as const, width: 16, height: 16 },
        focusable: false,
        selectable: false,
      })),
    [graph.edges, laid],
  );

  return (
    <ReactFlow<StepNode | FinishNode, FlowEdge>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      colorMode={scheme}
      fitView
      fitViewOptions={{ padding: 0.15, maxZoom: 1 }}
      minZoom={0.1}
      maxZoom={1.5}
      nodesDraggable={false}
      nodesConnectable
      edgesFocusable={false}
      elementsSelectable
      onNodeClick={(_event, node) => {
        const index = indexOfNode(node.id);
        if (index !== null) onSelect(index);
      }}
      // Selection is the editor's: a node picked by mouse or keyboard (Enter) is reported, never echoed back.
      onNodesChange={(changes) => {
        for (const change of changes) {
          if (change.type !== 'select' || !change.selected) continue;
          const index = indexOfNode(change.id);
          if (index !== null && index !== selectedIndex) onSelect(index);
        }
      }}
      onConnect={(connection: Connection) => {
        const source = indexOfNode(connection.source);
        const target = indexOfNode(connection.target);
        if (source !== null && target !== null) onConnect(source, target);
      }}
      proOptions={{ hideAttribution: true }}
      aria-label="Scenario graph"
    >
      <Controls showInteractive={false} aria-label="Zoom" />
      <MiniMap pannable zoomable ariaLabel="Overview of the graph" className={classes.minimap} />
      <FollowSelection structure={key} index={selectedIndex} edges={graph.edges} />
    </ReactFlow>
  );
}

/**
 * Keeps the selected step in view at a readable zoom: after a change of structure the view fits the selected
 * step and its neighbours; a new selection pans to it. "Fit view" in the controls shows the whole graph.
 */
function FollowSelection({
  structure,
  index,
  edges,
}: {
  structure: string;
  index: number | null;
  edges: readonly GraphEdgeSpec[];
}) {
  const flow = useReactFlow();
  const latest = useRef({ index, edges });
  useEffect(() => {
    latest.current = { index, edges };
  });
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const { index: selected, edges: current } = latest.current;
      if (selected === null) {
        void flow.fitView({ padding: 0.15, maxZoom: 1 });
        return;
      }
      const id = stepNodeId(selected);
      const around = new Set([id]);
      for (const edge of current) {
        if (edge.source === id) around.add(edge.target);
        if (edge.target === id) around.add(edge.source);
      }
      void flow.fitView({ nodes: [...around].map((node) => ({ id: node })), padding: 0.2, minZoom: 0.5, maxZoom: 1 });
    });
    return () => cancelAnimationFrame(frame);
  }, [structure, flow]);
  useEffect(() => {
    if (index === null) return;
    const node = flow.getNode(stepNodeId(index));
    if (!node) return;
    void flow.setCenter(node.position.x + NODE_WIDTH / 2, node.position.y + NODE_HEIGHT / 2, {
      zoom: Math.max(flow.getZoom(), 0.5),
      duration: 200,
    });
  }, [index, flow]);
  return null;
}

/** The scenario as a graph: steps as nodes coloured by kind, ways on as labelled edges, pan and zoom. */
export function ScenarioGraph(props: ScenarioGraphProps) {
  return (
    <div className={classes.frame}>
      <ReactFlowProvider>
        <GraphView {...props} />
      </ReactFlowProvider>
    </div>
  );
}
