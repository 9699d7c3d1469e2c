import { describe, expect, it } from 'vitest';
import { techniqueKey, techniqueLabel, techniqueRef, techniquesForCapec } from './index';

describe('ATT&CK helpers', () => {
  it('names a sub-technique after its parent', () => {
    expect(techniqueRef('t1566.001')).toEqual({ id: 'T1566.001', name: 'Phishing: Spearphishing Attachment' });
    expect(techniqueLabel('T1566.001')).toBe('T1566.001 Phishing: Spearphishing Attachment');
  });

  it('keeps an unknown id as it is', () => {
    expect(techniqueRef('T9999')).toEqual({ id: 'T9999', name: 'T9999' });
    expect(techniqueLabel('T9999')).toBe('T9999');
  });

  it('counts a technique under the dataset spelling, and nothing under a blank id', () => {
    expect(techniqueKey(' t1566 ')).toBe('T1566');
    expect(techniqueKey('t9999')).toBe('T9999');
    expect(techniqueKey('  ')).toBeNull();
    expect(techniqueKey(null)).toBeNull();
  });
});

describe('CAPEC ids', () => {
  it('lead to the active techniques whose ATT&CK entries named them, revoked ones followed to their successor', () => {
    expect(techniquesForCapec('CAPEC-163').map((technique) => technique.id)).toEqual([
      'T1566.001',
      'T1566.002',
      'T1566.003',
    ]);
    expect(techniquesForCapec('capec-644').map((technique) => technique.id)).toEqual(['T1550.002']);
  });

  it('lead nowhere for an id ATT&CK does not name', () => {
    expect(techniquesForCapec('CAPEC-1')).toEqual([]);
  });
});
