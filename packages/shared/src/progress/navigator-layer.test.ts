import { describe, expect, it } from 'vitest';
import { buildNavigatorLayer, skillComment } from './navigator-layer';
import { navigatorLayerSchema } from './progress.schema';
import { sharePercent, skillColor, SKILL_SCALE_COLORS } from './skill-scale';

describe('buildNavigatorLayer', () => {
  const layer = buildNavigatorLayer({
    name: 'Tradecraft skills: Dana Analyst',
    description: 'Share of answers correct per technique',
    attackVersion: '18.1',
    techniques: [
      { id: 'T1566.001', attempts: 4, correct: 3, subtechniqueOf: 'T1566' },
      { id: 'T1557', attempts: 2, correct: 0, subtechniqueOf: null },
      { id: 'T1078', attempts: 3, correct: 3, subtechniqueOf: null },
      { id: 'T1078.004', attempts: 1, correct: 0, subtechniqueOf: 'T1078' },
      { id: 'T1190', attempts: 0, correct: 0, subtechniqueOf: null },
    ],
  });

  it('has every field of layer format 4.5 with the right types', () => {
    expect(navigatorLayerSchema.safeParse(layer).error?.issues ?? []).toEqual([]);
    expect(layer.versions).toEqual({ attack: '18', navigator: '5.1.0', layer: '4.5' });
    expect(JSON.parse(JSON.stringify(layer))).toEqual(layer);
  });

  it('scores each technique met by the share answered correctly, with the counts as comment', () => {
    const byId = Object.fromEntries(layer.techniques.map((technique) => [technique.techniqueID, technique]));
    expect(byId['T1566.001']).toEqual({
      techniqueID: 'T1566.001',
      score: 75,
      comment: '3 of 4 first answers right (75 %)',
      enabled: true,
    });
    expect(byId.T1557).toMatchObject({ score: 0, comment: '0 of 2 first answers right (0 %)' });
    expect(byId.T1190).toBeUndefined();
  });

  it('expands the parent of a scored sub-technique so the Navigator shows it', () => {
    const byId = Object.fromEntries(layer.techniques.map((technique) => [technique.techniqueID, technique]));
    expect(byId.T1566).toEqual({
      techniqueID: 'T1566',
      comment: 'Scored on its sub-techniques',
      enabled: true,
      showSubtechniques: true,
    });
    expect(byId.T1078).toMatchObject({ score: 100, showSubtechniques: true });
  });

  it('sorts techniques by id and uses the red→amber→green gradient from 0 to 100', () => {
    expect(layer.techniques.map((technique) => technique.techniqueID)).toEqual([
      'T1078',
      'T1078.004',
      'T1557',
      'T1566',
      'T1566.001',
    ]);
    expect(layer.gradient).toEqual({ colors: [...SKILL_SCALE_COLORS], minValue: 0, maxValue: 100 });
  });
});

describe('the skill scale', () => {
  const luminance = (color: string) => {
    const value = Number.parseInt(color.slice(1), 16);
    const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((channel) => {
      const c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };

  it('goes from red at 0 through amber at 50 to green at 100', () => {
    expect(skillColor(0)).toBe(SKILL_SCALE_COLORS[0]);
    expect(skillColor(50)).toBe(SKILL_SCALE_COLORS[1]);
    expect(skillColor(100)).toBe(SKILL_SCALE_COLORS[2]);
  });

  it('keeps black text at 4.5:1 or better on every colour of the scale', () => {
    for (let percent = 0; percent <= 100; percent++) {
      expect((luminance(skillColor(percent)) + 0.05) / 0.05, `${percent} %`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('shares are whole percents, null without answers', () => {
    expect(sharePercent(2, 3)).toBe(67);
    expect(sharePercent(0, 0)).toBeNull();
    expect(skillComment(1, 1)).toBe('1 of 1 first answer right (100 %)');
  });
});
