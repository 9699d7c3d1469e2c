import { describe, expect, it } from 'vitest';
import { draftMentions, mentionKind, neutralCriterion } from './write-brief';

describe('neutralCriterion', () => {
  it('says a TLP criterion assesses the marking without naming the marking', () => {
    for (const criterion of [
      'TLP:AMBER+STRICT chosen; TLP:AMBER would allow sharing with clients such as the dealer network',
      'TLP:CLEAR, as the notice is public',
      'The TLP marking fits the audience (TLP:GREEN, sharing within the community, not public)',
    ]) {
      const shown = neutralCriterion(criterion);
      expect(shown).toBe('The TLP marking fits the audience and its sharing limits');
      expect(shown).not.toMatch(/TLP:|AMBER|GREEN|CLEAR/);
    }
  });

  it('leaves out the parenthesised specifics and the punctuation they leave behind', () => {
    expect(neutralCriterion('Actions concrete (rotate named secrets, hunt for their use since 2025-09-12)')).toBe(
      'Actions concrete',
    );
    expect(
      neutralCriterion(
        'Exact window (27/28 May to 1 June) and what left (file count, data types), without overstating',
      ),
    ).toBe('Exact window and what left, without overstating');
    expect(neutralCriterion('Bottom line first, in one or two sentences')).toBe(
      'Bottom line first, in one or two sentences',
    );
  });
});

describe('mentionKind and draftMentions', () => {
  it('names the kind of each term, never the term', () => {
    expect(
      [
        '198.51.100.62',
        'CVE-2023-34362',
        'T0883',
        '2025-09-12',
        'update-citrix-portal.example',
        '@simplug_ops',
        '20256',
        'Quick Assist',
        'svc_backup',
        '203.0.113[.]88',
      ].map(mentionKind),
    ).toEqual(['ip', 'cve', 'technique', 'date', 'domain', 'handle', 'number', 'term', 'term', 'ip']);
  });

  it('finds something of the kind in a draft while it is typed, and leaves free terms to the submission', () => {
    expect(draftMentions('ip', 'Blocked 192.0.2.1 at the edge')).toBe(true);
    expect(draftMentions('ip', 'Blocked the address at the edge')).toBe(false);
    expect(draftMentions('cve', 'patched cve-2023-4966 today')).toBe(true);
    expect(draftMentions('domain', 'seen on evil[.]example')).toBe(true);
    expect(draftMentions('term', 'anything at all')).toBeNull();
  });
});
