import { describe, expect, it } from 'vitest';
import { feedbackParagraphs } from './decision-panel';

describe('feedbackParagraphs', () => {
  it("prints the step's explanation once when the headline already carries it", () => {
    expect(feedbackParagraphs('Partly right: 0.5 credit.\nTwo of the four cells.', 'Two of the four cells.')).toEqual({
      headline: 'Partly right: 0.5 credit.',
      paragraphs: ['Two of the four cells.'],
    });
  });

  it("adds the step's explanation after a choice's own feedback when the headline does not carry it", () => {
    expect(feedbackParagraphs('Correct!\nScope first.', 'Every copy must go.')).toEqual({
      headline: 'Correct!',
      paragraphs: ['Scope first.', 'Every copy must go.'],
    });
  });

  it('has no paragraph when there is nothing to explain', () => {
    expect(feedbackParagraphs('Incorrect.', null)).toEqual({ headline: 'Incorrect.', paragraphs: [] });
  });
});
