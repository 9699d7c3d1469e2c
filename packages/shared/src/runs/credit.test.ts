import { describe, expect, it } from 'vitest';
import {
  achCredit,
  brierScore,
  canonicalIp,
  chargeHint,
  choiceCredit,
  estimateCredit,
  extractCredit,
  gradeSourceCredit,
  multiCredit,
  normaliseIndicator,
  rankCredit,
  refang,
  toThousandths,
  writeAutoCredit,
  writeChecks,
  writeFinalCredit,
} from './credit';

describe('choiceCredit', () => {
  const step = { correct_option: 1, options: [{}, {}, { credit: 0.5 }] };
  it('gives 1 for the correct option, an option its own credit, else 0', () => {
    expect(choiceCredit(step, 1)).toBe(1);
    expect(choiceCredit(step, 2)).toBe(0.5);
    expect(choiceCredit(step, 0)).toBe(0);
  });
});

describe('multiCredit', () => {
  const correct = [true, false, true, false];
  it('is (right picked - wrong picked) / right count', () => {
    expect(multiCredit(correct, [0, 2]).credit).toBe(1);
    expect(multiCredit(correct, [0]).credit).toBe(0.5);
    expect(multiCredit(correct, [0, 1, 2]).credit).toBe(0.5);
  });
  it('gives nothing for nothing picked, and nothing for everything picked when half are wrong', () => {
    expect(multiCredit(correct, []).credit).toBe(0);
    expect(multiCredit(correct, [0, 1, 2, 3]).credit).toBe(0);
  });
  it('never goes below 0', () => {
    expect(multiCredit(correct, [1, 3]).credit).toBe(0);
  });
});

describe('rankCredit', () => {
  it('gives 1 for the file order and 0 for the reversed order', () => {
    expect(rankCredit([0, 1, 2, 3]).credit).toBe(1);
    expect(rankCredit([3, 2, 1, 0])).toEqual({ credit: 0, discordantPairs: 6, totalPairs: 6 });
  });
  it('takes one discordant pair off per swap of neighbours', () => {
    expect(rankCredit([1, 0, 2, 3])).toEqual({ credit: 5 / 6, discordantPairs: 1, totalPairs: 6 });
  });
});

describe('estimateCredit', () => {
  it('gives 1 inside accept, 0.5 one term outside, else 0', () => {
    expect(estimateCredit('likely', ['likely', 'very-likely'])).toBe(1);
    expect(estimateCredit('roughly-even-chance', ['likely', 'very-likely'])).toBe(0.5);
    expect(estimateCredit('almost-certain', ['likely', 'very-likely'])).toBe(0.5);
    expect(estimateCredit('unlikely', ['likely', 'very-likely'])).toBe(0);
  });
});

describe('brierScore', () => {
  it('is the mean of (p - outcome)^2, null with no estimates', () => {
    expect(brierScore([])).toBeNull();
    expect(brierScore([{ probability: 0.675, outcome: true }])).toBeCloseTo(0.105625, 9);
    expect(
      brierScore([
        { probability: 0.97, outcome: true },
        { probability: 0.03, outcome: false },
      ]),
    ).toBeCloseTo(0.0009, 9);
  });
});

describe('gradeSourceCredit', () => {
  it('gives the mean of the axes: exact 1, adjacent 0.5, else 0', () => {
    expect(gradeSourceCredit({ reliability: 'B', credibility: 2 }, { reliability: 'B', credibility: 2 }).credit).toBe(
      1,
    );
    expect(gradeSourceCredit({ reliability: 'C', credibility: 2 }, { reliability: 'B', credibility: 2 }).credit).toBe(
      0.75,
    );
    expect(gradeSourceCredit({ reliability: 'A', credibility: 3 }, { reliability: 'B', credibility: 2 }).credit).toBe(
      0.5,
    );
    expect(gradeSourceCredit({ reliability: 'D', credibility: 5 }, { reliability: 'B', credibility: 2 }).credit).toBe(
      0,
    );
  });
  it('counts F and 6 exact only (never adjacent to E or 5)', () => {
    expect(gradeSourceCredit({ reliability: 'F', credibility: 6 }, { reliability: 'E', credibility: 5 }).credit).toBe(
      0,
    );
    expect(gradeSourceCredit({ reliability: 'E', credibility: 5 }, { reliability: 'F', credibility: 6 }).credit).toBe(
      0,
    );
    expect(gradeSourceCredit({ reliability: 'F', credibility: 6 }, { reliability: 'F', credibility: 6 }).credit).toBe(
      1,
    );
  });
});

describe('extract normalising', () => {
  it('refangs the usual defanging', () => {
    expect(refang('hxxps://evil[.]example(.)com{.}net/a[@]b[:]8080')).toBe('https://evil.example.com.net/a@b:8080');
  });
  it('lower-cases domains and drops the trailing dot, refanged', () => {
    expect(normaliseIndicator('domain', '  Evil[.]Example.COM. ')).toBe('evil.example.com');
  });
  it('lower-cases emails and hashes', () => {
    expect(normaliseIndicator('email', 'Bob[@]Corp[.]com')).toBe('bob@corp.com');
    expect(normaliseIndicator('hash', 'ABCDEF0123')).toBe('abcdef0123');
  });
  it('lower-cases a URL scheme and host only', () => {
    expect(normaliseIndicator('url', 'HXXPS://Evil[.]Example.com/Path/File.EXE')).toBe(
      'https://evil.example.com/Path/File.EXE',
    );
  });
  it('upper-cases CVE and technique ids', () => {
    expect(normaliseIndicator('technique', 't1566.001')).toBe('T1566.001');
    expect(normaliseIndicator('cve', 'cve-2024-3400')).toBe('CVE-2024-3400');
  });
  it('compares text ignoring case and runs of white space', () => {
    expect(normaliseIndicator('text', '  Cobalt   Strike\n')).toBe('cobalt strike');
  });
  it('writes IP addresses canonically (IPv4 leading zeros, IPv6 per RFC 5952)', () => {
    expect(canonicalIp('010.001.002.003')).toBe('10.1.2.3');
    expect(canonicalIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalIp('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIp('::ffff:192.0.2.1')).toBe('::ffff:c000:201');
    expect(canonicalIp('[2001:db8::1]')).toBe('2001:db8::1');
    expect(canonicalIp('2001:db8::1::2')).toBeNull();
    expect(canonicalIp('300.1.1.1')).toBeNull();
    expect(normaliseIndicator('ip', '192[.]168[.]001[.]010')).toBe('192.168.1.10');
  });
  it('gives the share of fields right; an empty value is never right', () => {
    const fields = [
      { type: 'domain' as const, accept: ['evil.example.com'] },
      { type: 'ip' as const, accept: ['2001:db8::1'] },
    ];
    expect(extractCredit(fields, ['EVIL[.]example.com', '2001:DB8:0:0:0:0:0:1'])).toBe(1);
    expect(extractCredit(fields, ['evil.example.com', ''])).toBe(0.5);
    expect(extractCredit(fields, ['', ''])).toBe(0);
  });
});

describe('achCredit', () => {
  const key = {
    marks: [
      ['C', 'I'],
      ['I', 'C'],
    ] as const,
    best: 1,
  };
  it('is 0.5 x cells right + 0.5 for the best hypothesis', () => {
    expect(
      achCredit(key, {
        marks: [
          ['C', 'I'],
          ['I', 'C'],
        ],
        best: 1,
      }).credit,
    ).toBe(1);
    expect(
      achCredit(key, {
        marks: [
          ['C', 'I'],
          ['I', 'C'],
        ],
        best: 0,
      }).credit,
    ).toBe(0.5);
    expect(
      achCredit(key, {
        marks: [
          ['C', 'C'],
          ['I', 'C'],
        ],
        best: 1,
      }).credit,
    ).toBe(0.875);
  });
  it('counts an empty cell as wrong', () => {
    expect(
      achCredit(key, {
        marks: [
          [null, 'I'],
          ['I', 'C'],
        ],
        best: 1,
      }),
    ).toEqual({ credit: 0.875, cellsRight: 3, cellCount: 4 });
  });
});

describe('write checks', () => {
  const step = {
    max_words: 12,
    checks: { tlp: true, estimative_language: true, must_mention: ['APT29', 'evil.example.com'] },
  };

  it('passes a marked, precise, complete and short text', () => {
    const checks = writeChecks(step, 'TLP:AMBER+STRICT APT29 very likely used evil[.]example.com for staging.');
    expect(checks.map((check) => [check.check, check.passed])).toEqual([
      ['tlp', true],
      ['estimative_language', true],
      ['must_mention', true],
      ['max_words', true],
    ]);
    expect(writeAutoCredit(checks, 0.3)).toBeCloseTo(0.3, 9);
  });

  it('flags vague likelihood words by place', () => {
    const text = 'TLP:GREEN APT29 could maybe be behind evil.example.com.';
    const check = writeChecks(step, text).find((outcome) => outcome.check === 'estimative_language');
    expect(check?.passed).toBe(false);
    expect(check?.places).toEqual([
      { word: 'could', index: text.indexOf('could') },
      { word: 'maybe', index: text.indexOf('maybe') },
    ]);
  });

  it('refuses a missing or misspelt TLP marking, a missing term and too many words', () => {
    const checks = writeChecks(
      step,
      'TLP:PURPLE one two three four five six seven eight nine ten eleven twelve thirteen',
    );
    expect(checks.every((check) => check.check === 'estimative_language' || !check.passed)).toBe(true);
    expect(checks.find((check) => check.check === 'must_mention')?.reason).toBe('Mention "APT29", "evil.example.com".');
  });

  it('passes nothing for an empty text', () => {
    const checks = writeChecks(step, '   ');
    expect(checks.every((check) => !check.passed)).toBe(true);
    expect(writeAutoCredit(checks, 0.3)).toBe(0);
  });

  it('gives the final credit as auto share + (1 - auto_weight) x points / maximum', () => {
    expect(writeFinalCredit(0.3, 0.3, [2, 3], [{ points: 2 }, { points: 3 }])).toBeCloseTo(1, 9);
    expect(writeFinalCredit(0.15, 0.3, [1, 0], [{ points: 2 }, { points: 3 }])).toBeCloseTo(0.15 + 0.7 * 0.2, 9);
  });
});

describe('thousandths and hints', () => {
  it('keeps credits in whole thousandths within 0..1000', () => {
    expect(toThousandths(5 / 6)).toBe(833);
    expect(toThousandths(1.2)).toBe(1000);
    expect(toThousandths(-1)).toBe(0);
  });
  it('charges a hint by multiplying by 1 - cost', () => {
    expect(chargeHint(1000, 0.25)).toBe(750);
    expect(chargeHint(500, 0)).toBe(500);
    expect(chargeHint(1000, 1)).toBe(0);
  });
});
