// A scenario with one step of every kind, for the checker's, the grader's and the run engine's tests.

/** A valid scenario with one step of every kind (choice first, write last). */
export function everyKindScenario(): Record<string, unknown> & { steps: Array<Record<string, unknown>> } {
  return {
    id: 'every-kind',
    name: 'Every kind',
    type: 'Phishing',
    difficulty: 2,
    description: 'One step of every kind.',
    hint_cost: 0.25,
    steps: [
      {
        id: 'brief',
        title: 'Briefing',
        description: 'Read the tasking.',
        scored: false,
        options: ['Acknowledge', 'Also acknowledge'],
        correct_option: 0,
      },
      {
        id: 'pick',
        title: 'Pick',
        description: 'Pick one.',
        hint: 'HINT-pick: think about scope.',
        options: ['Right one', { text: 'Second best answer', credit: 0.5 }, 'Wrong'],
        correct_option: 0,
      },
      {
        id: 'many',
        kind: 'multi',
        title: 'Many',
        description: 'Pick all that apply.',
        options: [{ text: 'A', correct: true }, 'B', { text: 'C', correct: true }],
      },
      {
        id: 'order',
        kind: 'rank',
        title: 'Rank',
        description: 'Most urgent first.',
        options: ['First', 'Second', 'Third'],
      },
      {
        id: 'guess',
        kind: 'estimate',
        title: 'Estimate',
        description: 'How likely?',
        statement: 'The actor returns within 30 days.',
        ask_confidence: true,
        accept: ['likely', 'very-likely'],
        outcome: true,
        below: { credit: 0.5, next_step: 'grade' },
      },
      {
        id: 'grade',
        kind: 'grade-source',
        title: 'Grade',
        description: 'Grade the post.',
        artifacts: [{ kind: 'forum-post', content: 'We sell access.', tlp: 'AMBER' }],
        artifact: 0,
        reliability: 'C',
        credibility: 3,
      },
      {
        id: 'pull',
        kind: 'extract',
        title: 'Extract',
        description: 'Find the indicators.',
        artifacts: [{ kind: 'dns', content: 'evil[.]example.com A 192.0.2.1' }],
        fields: [
          { label: 'Domain', type: 'domain', accept: ['evil.example.com'] },
          { label: 'Address', type: 'ip', accept: ['192.0.2.1'] },
        ],
      },
      {
        id: 'weigh',
        kind: 'ach',
        title: 'Weigh',
        description: 'Fill the matrix.',
        hypotheses: ['Criminal', 'State'],
        evidence: [
          { text: 'Ransom note', marks: ['C', 'C'] },
          { text: 'Wiper', marks: ['I', 'C'] },
        ],
        best: 1,
      },
      {
        id: 'bluf',
        kind: 'write',
        title: 'Write',
        description: 'Write the BLUF.',
        prompt: 'Write a BLUF for the CISO.',
        hint: 'HINT-bluf: start with the marking.',
        max_words: 80,
        checks: { tlp: true, estimative_language: true, must_mention: ['APT29'] },
        rubric: [
          { criterion: 'Bottom line first', points: 2 },
          { criterion: 'Actionable', points: 3 },
        ],
        model_answer: 'TLP:AMBER APT29 is very likely behind it.',
      },
    ],
  };
}
