import { describe, expect, it } from 'vitest';
import { toDraft } from './draft';
import { buildGraph, FINISH_NODE, layoutGraph, stepNodeId, structureKey } from './graph';

const scenario = toDraft({
  name: 'Graph',
  type: 'Phishing',
  difficulty: 1,
  description: 'd',
  steps: [
    {
      id: 'start',
      title: 'Start',
      description: 'd',
      options: [{ text: 'Go on', next_step: 'judge' }, { text: 'Look again', next_step: null }, 'Wander off'],
      correct_option: 0,
    },
    { id: 'aside', kind: 'multi', title: 'Aside', description: 'd', options: [{ text: 'a', correct: true }, 'b'] },
    {
      id: 'judge',
      kind: 'estimate',
      title: 'Judge',
      description: 'd',
      statement: 's',
      accept: ['likely'],
      outcome: true,
      below: { credit: 0.5, next_step: 'fallout' },
    },
    { id: 'fallout', kind: 'rank', title: 'Fallout', description: 'd', scored: false, options: ['x', 'y', 'z'] },
  ],
});

describe('the scenario graph', () => {
  it('draws one node per step, options as labelled edges, Retry as a loop and the below branch apart', () => {
    const graph = buildGraph(scenario.steps, new Map([[1, 2]]));
    expect(graph.nodes.map((node) => [node.stepId, node.kind, node.branch, node.problemCount])).toEqual([
      ['start', 'choice', false, 0],
      ['aside', 'multi', true, 2],
      ['judge', 'estimate', false, 0],
      ['fallout', 'rank', false, 0],
    ]);
    const byId = new Map(graph.edges.map((edge) => [edge.id, edge]));
    expect(byId.get('step-0->step-2:on')).toMatchObject({ role: 'option', best: true, labels: ['1. Go on ✓'] });
    expect(byId.get('step-0->step-0:retry')).toMatchObject({ role: 'retry', labels: ['Retry: 2. Look again'] });
    // An option without next_step goes to the following step.
    expect(byId.get('step-0->step-1:on')).toMatchObject({ role: 'option', best: false, labels: ['3. Wander off'] });
    expect(byId.get('step-2->step-3:below')).toMatchObject({ role: 'below', labels: ['below 0.5'], best: false });
    expect(byId.get(`step-3->${FINISH_NODE}:on`)).toMatchObject({ role: 'next' });
  });

  it('merges options that lead to the same step into one edge listing them', () => {
    const draft = toDraft({
      ...scenario,
      steps: [
        { id: 'a', title: 'A', description: 'd', options: ['one', 'two'], correct_option: 0 },
        { id: 'b', kind: 'rank', title: 'B', description: 'd', options: ['x', 'y', 'z'] },
      ],
    });
    const edges = buildGraph(draft.steps, new Map()).edges.filter((edge) => edge.source === 'step-0');
    expect(edges).toHaveLength(1);
    expect(edges[0]?.labels).toEqual(['1. one ✓', '2. two']);
  });

  it('draws a draft with a missing reference, sending it to the following step', () => {
    const draft = toDraft({
      ...scenario,
      steps: [
        { id: 'a', title: 'A', description: 'd', options: [{ text: 'x', next_step: 'gone' }, 'y'], correct_option: 0 },
        { id: 'b', kind: 'rank', title: 'B', description: 'd', options: ['x', 'y', 'z'] },
      ],
    });
    expect(buildGraph(draft.steps, new Map()).edges[0]).toMatchObject({ source: 'step-0', target: 'step-1' });
  });

  it('keeps the layout key when only texts change, and changes it when a way is rewired', () => {
    const key = structureKey(buildGraph(scenario.steps, new Map()));
    const retitled = scenario.steps.map((step) => ({ ...step, title: `${step.title}!` }));
    expect(structureKey(buildGraph(retitled, new Map([[0, 3]])))).toBe(key);
    const rewired = scenario.steps.map((step, index) => (index === 1 ? { ...step, next_step: 'fallout' } : step));
    expect(structureKey(buildGraph(rewired, new Map()))).not.toBe(key);
  });

  it('lays every step out top to bottom, the best path downwards', () => {
    const graph = buildGraph(scenario.steps, new Map());
    const layout = layoutGraph(graph);
    const y = (index: number) => layout.nodes.get(stepNodeId(index))!.y;
    expect(y(0)).toBeLessThan(y(2));
    expect(y(2)).toBeLessThan(y(3));
    expect(layout.nodes.has(FINISH_NODE)).toBe(true);
    expect(layout.edges.get('step-0->step-2:on')?.label).not.toBeNull();
  });

  it('lays out a 60-step scenario', () => {
    const steps = Array.from({ length: 60 }, (_, index) => ({
      id: `s${index}`,
      title: `Step ${index}`,
      description: 'd',
      options: [{ text: 'on' }, { text: 'back', next_step: index > 0 ? `s${index - 1}` : null }],
      correct_option: 0,
    }));
    const graph = buildGraph(toDraft({ ...scenario, steps }).steps, new Map());
    expect(graph.nodes).toHaveLength(60);
    expect(layoutGraph(graph).nodes.size).toBe(61);
  });
});
