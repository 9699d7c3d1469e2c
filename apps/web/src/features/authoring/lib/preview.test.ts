import { ScenarioSchema } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import { answerInPreview, previewOrder, toPlayerStep } from './preview';

const definition = ScenarioSchema.parse({
  name: 'Preview',
  type: 'Phishing',
  difficulty: 1,
  description: 'd',
  steps: [
    {
      id: 'pick',
      title: 'Pick',
      description: 'd',
      hint: 'Think.',
      options: [{ text: 'Right', next_step: 'grade' }, { text: 'Again', next_step: null }, 'Other'],
      correct_option: 0,
    },
    {
      id: 'grade',
      kind: 'grade-source',
      title: 'Grade',
      description: 'd',
      artifacts: [{ kind: 'forum-post', content: 'claim', admiralty: 'B2' }],
      artifact: 0,
      reliability: 'F',
      credibility: 3,
    },
  ],
});
const [pick, grade] = definition.steps as [(typeof definition.steps)[number], (typeof definition.steps)[number]];

describe('the preview', () => {
  it('shows a step as a trainee sees it: options shuffled, no key, no grade on the graded artifact', () => {
    const shown = toPlayerStep(definition, pick, { seed: 'seed', hintOpened: false });
    expect(shown.kind === 'choice' && shown.options.map((option) => option.text).sort()).toEqual([
      'Again',
      'Other',
      'Right',
    ]);
    expect(JSON.stringify(shown)).not.toContain('correct');
    expect(shown.hintState).toMatchObject({ available: true, opened: false, text: null });
    const graded = toPlayerStep(definition, grade, { seed: 'seed', hintOpened: false });
    expect(graded.artifacts[0]).not.toHaveProperty('admiralty');
  });

  it('grades with the shared rules and follows the shared flow (Retry stays, the right option goes on)', () => {
    const order = previewOrder('seed', pick);
    const shownIndex = (file: number) => order.indexOf(file);
    const context = { seed: 'seed', hintOpened: false, firstSubmission: true };
    const retry = answerInPreview(definition, pick, { optionIndex: shownIndex(1) }, context);
    expect(retry.ok && retry.next).toEqual({ kind: 'retry' });
    const right = answerInPreview(definition, pick, { optionIndex: shownIndex(0) }, context);
    expect(right.ok && right.graded.earnedThousandths).toBe(1000);
    expect(right.ok && right.next).toEqual({ kind: 'step', stepId: 'grade' });
    const last = answerInPreview(definition, grade, { reliability: 'F', credibility: 3 }, context);
    expect(last.ok && last.next).toEqual({ kind: 'finish' });
  });

  it('refuses an answer that does not fit the step, as the server would', () => {
    const refused = answerInPreview(
      definition,
      pick,
      { optionIndex: 9 },
      { seed: 's', hintOpened: false, firstSubmission: true },
    );
    expect(refused).toEqual({ ok: false, message: 'That option does not exist on this step.' });
  });
});
