import { describe, expect, it } from 'vitest';
import { checkScenario, formatProblem, type ScenarioCheckResult } from './check-scenario';
import { everyKindScenario } from './every-kind.fixture';

// The ACH key rules (docs/scenario-format.md, "ACH keys"): the key is the one hypothesis with the fewest
// inconsistent rows, and no two rows repeat one judgement. A built-in file is refused; an upload is warned.

const WEIGH = 7;

function withMatrix(matrix: Record<string, unknown>) {
  const scenario = everyKindScenario();
  Object.assign(scenario.steps[WEIGH]!, matrix);
  return scenario;
}

const problemsOf = (result: ScenarioCheckResult) => (result.ok ? [] : result.problems.map(formatProblem));

describe('the ACH key rules', () => {
  it('accept a key that is the one hypothesis with the fewest inconsistencies', () => {
    const result = checkScenario(
      withMatrix({
        hypotheses: ['Criminal', 'State', 'Insider'],
        evidence: [
          { text: 'No ransom demand', marks: ['I', 'C', 'C'] },
          { text: 'Spray from outside', marks: ['C', 'C', 'I'] },
        ],
        best: 1,
      }),
      { origin: 'builtin' },
    );
    expect(problemsOf(result)).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('refuse a built-in key that another hypothesis beats, and warn an upload of it', () => {
    const matrix = {
      hypotheses: ['Criminal', 'State'],
      evidence: [
        { text: 'Ransom note', marks: ['C', 'I'] },
        { text: 'Payment portal', marks: ['C', 'I'] },
      ],
      best: 1,
    };
    const message =
      'steps[7].best: best is 1, but hypothesis 0 ("Criminal") has the fewest inconsistent rows (0, against 2); the key must be the one hypothesis with the fewest inconsistencies';
    expect(problemsOf(checkScenario(withMatrix(matrix), { origin: 'builtin' }))).toEqual([message]);
    const upload = checkScenario(withMatrix(matrix));
    expect(upload.ok).toBe(true);
    expect(upload.warnings.map(formatProblem)).toEqual([message]);
  });

  it('refuse a tie for the fewest inconsistencies, even when the key is one of the tied', () => {
    expect(
      problemsOf(
        checkScenario(
          withMatrix({
            hypotheses: ['Us', 'A competitor', 'A scam'],
            evidence: [
              { text: 'Revenue matches', marks: ['C', 'C', 'C'] },
              { text: 'Seller has 31 clean sales', marks: ['C', 'C', 'I'] },
            ],
            best: 0,
          }),
          { origin: 'builtin' },
        ),
      ),
    ).toEqual([
      'steps[7].best: hypotheses 0 ("Us"), 1 ("A competitor") tie with 0 inconsistent rows each; add evidence that tells them apart, since the key must be the one hypothesis with the fewest inconsistencies',
    ]);
  });

  it('refuse the same finding written twice, whatever its case and punctuation', () => {
    expect(
      problemsOf(
        checkScenario(
          withMatrix({
            evidence: [
              { text: 'A wiper, no ransom note', marks: ['I', 'C'] },
              { text: 'a wiper; no ransom note.', marks: ['I', 'C'] },
            ],
          }),
          { origin: 'builtin' },
        ),
      ),
    ).toEqual(['steps[7].evidence[1].text: repeats evidence row 0; each finding is one row']);
  });

  it("refuse one source's judgement counted twice, but not the same source saying different things", () => {
    const twice = withMatrix({
      evidence: [
        { text: 'A joint advisory names the state', marks: ['I', 'C'], source: 'US government' },
        { text: 'Sanctions on six named officers', marks: ['I', 'C'], source: 'US Government' },
      ],
    });
    expect(problemsOf(checkScenario(twice, { origin: 'builtin' }))).toEqual([
      'steps[7].evidence[1]: repeats the judgement of evidence row 0 (the same source, "US Government", with the same marks); one source saying one thing is one row, however many documents carry it',
    ]);
    const different = withMatrix({
      evidence: [
        { text: 'A joint advisory names the state', marks: ['I', 'C'], source: 'US government' },
        { text: 'The same advisory saw a ransom demand', marks: ['C', 'C'], source: 'US government' },
      ],
    });
    expect(problemsOf(checkScenario(different, { origin: 'builtin' }))).toEqual([]);
  });
});
