import type { AdminScenarioStep } from '@tradecraft/shared';
import { Box, Group, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { correctPath, flowEdges, type FlowEdge } from '../lib/scenario-flow';
import classes from './branch-diagram.module.css';

// Steps stand in file order, one below the other, with the finish at the bottom. Correct answers are solid
// green (straight down to the following step, or an arc on the left for a jump); other answers are dashed
// grey arcs on the right; a step with a Retry answer carries an orange ↺ Retry mark.
const NODE_W = 380;
const NODE_H = 40;
const ROW = 60;
const PAD_Y = 28;
const ARC_BASE = 18;
const ARC_PER_ROW = 14;
const ARC_MAX = 120;
const MAX_LABEL = 46;
const MAX_LABEL_WITH_RETRY = 36;

const bulge = (from: number, to: number) => Math.min(ARC_MAX, ARC_BASE + ARC_PER_ROW * Math.abs(to - from));

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function BranchDiagram({ name, steps }: { name: string; steps: readonly AdminScenarioStep[] }) {
  const id = useId();
  const allEdges = flowEdges(steps);
  const retries = new Set(allEdges.filter((edge) => edge.to === 'retry').map((edge) => edge.from));
  const edges = allEdges.filter((edge) => edge.to !== 'retry');
  const onPath = new Set(correctPath(steps));
  const finishIndex = steps.length;

  const leftArcs = edges.filter((edge) => edge.correct && target(edge) !== edge.from + 1);
  const rightArcs = edges.filter((edge) => !edge.correct);
  const left = 16 + Math.max(0, ...leftArcs.map((edge) => bulge(edge.from, target(edge))));
  const right = 16 + Math.max(0, ...rightArcs.map((edge) => bulge(edge.from, target(edge))));
  const width = left + NODE_W + right;
  const height = PAD_Y * 2 + (steps.length + 1) * ROW - (ROW - NODE_H);
  const x0 = left;
  const x1 = left + NODE_W;
  const top = (index: number) => PAD_Y + index * ROW;
  const middle = (index: number) => top(index) + NODE_H / 2;

  function target(edge: FlowEdge): number {
    return edge.to === 'finish' ? finishIndex : edge.to === 'retry' ? edge.from : edge.to;
  }

  function edgePath(edge: FlowEdge): string {
    const from = edge.from;
    const to = target(edge);
    if (edge.correct && to === from + 1) {
      const centre = x0 + NODE_W / 2;
      return `M ${centre} ${top(from) + NODE_H} L ${centre} ${top(to) - 3}`;
    }
    const down = to > from;
    const ys = middle(from) + (down ? 6 : -6);
    const ye = middle(to) + (down ? -6 : 6);
    const b = bulge(from, to);
    return edge.correct
      ? `M ${x0} ${ys} C ${x0 - b} ${ys}, ${x0 - b} ${ye}, ${x0 - 3} ${ye}`
      : `M ${x1} ${ys} C ${x1 + b} ${ys}, ${x1 + b} ${ye}, ${x1 + 3} ${ye}`;
  }

  const path = [...onPath].map((index) => index + 1);
  const description =
    `${steps.length} steps in file order, then the finish. Answering every step correctly goes through steps ` +
    `${path.join(', ')} to the finish. Solid arrows are correct answers and dashed arrows on the right are other ` +
    'answers; steps marked Retry have an answer that stays on the step. The step list describes every option in words.';

  const arrow = { correct: `${id}-correct`, other: `${id}-other` };

  return (
    <Stack gap="sm">
      {/* Wider than a phone: the region scrolls sideways, and takes focus so a keyboard can scroll it too. */}
      <Box component="section" tabIndex={0} aria-label="Branch diagram" style={{ overflowX: 'auto' }} pb={4}>
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          style={{ display: 'block' }}
        >
          <title id={`${id}-title`}>{`Branch diagram of ${name}`}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          <defs>
            {(
              [
                ['correct', classes.arrowCorrect],
                ['other', classes.arrowOther],
              ] as const
            ).map(([kind, className]) => (
              <marker
                key={kind}
                id={arrow[kind]}
                viewBox="0 0 10 10"
                refX="8"
                refY="5"
                markerWidth="7"
                markerHeight="7"
                orient="auto-start-reverse"
              >
                <path d="M 0 0 L 10 5 L 0 10 z" className={className} />
              </marker>
            ))}
          </defs>

          {edges.map((edge) => {
            const kind = edge.correct ? 'correct' : 'other';
            return (
              <path
                key={`${edge.from}-${String(edge.to)}`}
                d={edgePath(edge)}
                className={`${classes.edge} ${classes[kind]}`}
                markerEnd={`url(#${arrow[kind]})`}
                data-edge={kind}
              />
            );
          })}

          <text x={x0} y={PAD_Y - 8} className={classes.caption}>
            Start
          </text>
          {steps.map((step, index) => (
            <g key={step.id} data-step={step.id}>
              <title>{`Step ${index + 1}: ${step.title}`}</title>
              <rect
                x={x0}
                y={top(index)}
                width={NODE_W}
                height={NODE_H}
                rx={8}
                className={`${classes.node} ${onPath.has(index) ? classes.nodeOnPath : ''}`}
              />
              <text x={x0 + 12} y={middle(index) + 4.5} className={classes.label}>
                {`${index + 1}. ${truncate(step.title, retries.has(index) ? MAX_LABEL_WITH_RETRY : MAX_LABEL)}`}
              </text>
              {retries.has(index) && (
                <text x={x1 - 10} y={middle(index) + 4.5} textAnchor="end" className={classes.retryMark}>
                  ↺ Retry
                </text>
              )}
            </g>
          ))}
          <g>
            <rect
              x={x0}
              y={top(finishIndex)}
              width={NODE_W}
              height={NODE_H}
              rx={NODE_H / 2}
              className={classes.finish}
            />
            <text x={x0 + NODE_W / 2} y={middle(finishIndex) + 4.5} textAnchor="middle" className={classes.label}>
              Finish
            </text>
          </g>
        </svg>
      </Box>
      <Group gap="lg" aria-hidden="true">
        <LegendItem kind="correct" label="Correct answer" />
        <LegendItem kind="other" label="Other answers" />
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={700} className={classes.retryText}>
            ↺ Retry
          </Text>
          <Text size="sm">an answer that stays on the step</Text>
        </Group>
      </Group>
    </Stack>
  );
}

function LegendItem({ kind, label }: { kind: 'correct' | 'other'; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <svg width="28" height="10">
        <line x1="1" y1="5" x2="27" y2="5" className={`${classes.edge} ${classes[kind]}`} />
      </svg>
      <Text size="sm">{label}</Text>
    </Group>
  );
}
