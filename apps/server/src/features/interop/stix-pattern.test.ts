import { describe, expect, it } from 'vitest';
import { comparisonsOf, parseStixPattern, StixPatternError } from '../../../../../test-support/stix-pattern';

// The test grammar itself (test-support/stix-pattern.ts): the exports are only as well checked as it is strict.
describe('the STIX 2.1 pattern grammar of the tests', () => {
  it.each([
    "[domain-name:value = 'rota-share.example']",
    "[file:hashes.'SHA-256' = 'ef537f25c895bfa782526529a9b63d97aa631564d5d789c2b765448c8635fb6c']",
    "[file:hashes.MD5 = 'd41d8cd98f00b204e9800998ecf8427e' OR file:name = 'a\\'b.exe']",
    "[ipv4-addr:value ISSUBSET '198.51.100.0/24'] AND [network-traffic:dst_port NOT IN (80, 443)]",
    "[email-message:from_ref.value MATCHES '.+@example\\\\.com$'] FOLLOWEDBY [url:value LIKE 'http://%']",
    "([process:pid > 4 AND process:name != 'x'] OR [process:extensions.'windows-process-ext'.aslr_enabled = true]) WITHIN 300 SECONDS",
    "[network-traffic:src_ref.value = '203.0.113.5'] REPEATS 5 TIMES START t'2016-06-01T00:00:00Z' STOP t'2016-07-01T00:00:00.5Z'",
    "[file:contents_ref.payload_bin = b'aGVsbG8=' AND file:size >= -1 AND file:x_hex = h'00ff']",
    "[user-account:extensions.'unix-account-ext'.groups[*] = 'wheel' AND x-custom-object:list[0] = 1.5]",
    "[windows-registry-key:values[*].name = 'x' /* a comment */ AND EXISTS windows-registry-key:key]",
  ])('accepts %s', (pattern) => {
    expect(() => parseStixPattern(pattern)).not.toThrow();
  });

  it.each([
    ["domain-name:value = 'x'", 'no brackets'],
    ["[domain-name:value = 'rota-share[.]example' ", 'an unclosed observation'],
    ["[domain-name:value = 'it's']", 'an unescaped quote'],
    ['[domain-name:value = "x"]', 'a double-quoted string'],
    ["[domain-name:value 'x']", 'no operator'],
    ["[domain-name:value = 'x'] and [url:value = 'y']", 'a lower-case keyword'],
    ['[domain-name:value > true]', 'a boolean in an ordering'],
    ["[file:hashes.SHA-256 = 'x']", 'an unquoted hyphenated property'],
    ["[file:name = 'x'] WITHIN -5 SECONDS", 'a negative WITHIN'],
    ["[file:name = 'x'] REPEATS 2", 'REPEATS without TIMES'],
    ["[file:name = 'x'] START t'2016-13-01T00:00:00Z' STOP t'2016-07-01T00:00:00Z'", 'a month 13'],
    ["[file:name = b'abc']", 'bad base64'],
    ["[Domain:value = 'x']", 'an upper-case object type'],
  ])('refuses %s (%s)', (pattern) => {
    expect(() => parseStixPattern(pattern)).toThrow(StixPatternError);
  });

  it('reads the object path, operator and value of each comparison', () => {
    const tree = parseStixPattern(
      "[file:hashes.'SHA-256' = 'ab' OR file:name NOT LIKE 'x%'] FOLLOWEDBY [a-b:c[2] = 3]",
    );
    expect(
      comparisonsOf(tree).map((test) => [
        test.path.objectType,
        test.path.steps,
        test.negated,
        test.operator,
        test.value,
      ]),
    ).toEqual([
      ['file', ['hashes', 'SHA-256'], false, '=', { type: 'string', value: 'ab' }],
      ['file', ['name'], true, 'LIKE', { type: 'string', value: 'x%' }],
      ['a-b', ['c', 2], false, '=', { type: 'int', value: 3 }],
    ]);
  });

  it('binds AND tighter than OR, and OR tighter than FOLLOWEDBY', () => {
    const tree = parseStixPattern('[a-a:x = 1] FOLLOWEDBY [b-b:x = 1] OR [c-c:x = 1] AND [d-d:x = 1]');
    expect(tree).toMatchObject({
      kind: 'followedby',
      operands: [{ kind: 'observation' }, { kind: 'or', operands: [{ kind: 'observation' }, { kind: 'and' }] }],
    });
  });
});
