import { SKILL_SCALE_COLORS, sharePercent } from './skill-scale';

// An ATT&CK Navigator layer (format 4.5) of a trainee's skills: one technique entry per technique met,
// scored by the share of answers that were right, so the file opens in the public ATT&CK Navigator.
// No platform filter is written: the Navigator then shows every platform of the domain.

export const NAVIGATOR_LAYER_VERSION = '4.5' as const;
export const NAVIGATOR_VERSION = '5.1.0';
export const NAVIGATOR_LAYER_FILENAME = 'tradecraft-attack-layer.json';

export interface NavigatorLayerTechnique {
  techniqueID: string;
  /** 0..100, the share correct; absent on a parent listed only to show its sub-techniques. */
  score?: number;
  comment: string;
  enabled: boolean;
  showSubtechniques?: boolean;
}

export interface NavigatorLayer {
  name: string;
  versions: { attack: string; navigator: string; layer: typeof NAVIGATOR_LAYER_VERSION };
  domain: 'enterprise-attack';
  description: string;
  sorting: number;
  layout: {
    layout: 'side' | 'flat' | 'mini';
    aggregateFunction: 'average';
    showID: boolean;
    showName: boolean;
    showAggregateScores: boolean;
    countUnscored: boolean;
    expandedSubtechniques: 'none' | 'annotated' | 'all';
  };
  hideDisabled: boolean;
  techniques: NavigatorLayerTechnique[];
  gradient: { colors: string[]; minValue: number; maxValue: number };
  legendItems: { label: string; color: string }[];
  metadata: { name: string; value: string }[];
  links: { label: string; url: string }[];
  showTacticRowBackground: boolean;
  tacticRowBackground: string;
  selectTechniquesAcrossTactics: boolean;
  selectSubtechniquesWithParent: boolean;
  selectVisibleTechniques: boolean;
}

export interface LayerTechniqueInput {
  id: string;
  attempts: number;
  correct: number;
  /** The parent technique's id when this is a sub-technique (the Navigator hides sub-techniques otherwise). */
  subtechniqueOf: string | null;
}

export interface LayerInput {
  name: string;
  description: string;
  /** The ATT&CK release the ids come from, e.g. "18.1"; the layer names its major version. */
  attackVersion: string;
  techniques: readonly LayerTechniqueInput[];
  /** Extra lines for the layer's metadata panel (who, when). */
  metadata?: { name: string; value: string }[];
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "3 of 4 first answers right (75 %)": right first answers over first answers (docs/scoring.md). */
export function skillComment(correct: number, attempts: number): string {
  const percent = sharePercent(correct, attempts);
  return `${correct} of ${plural(attempts, 'first answer')} right${percent === null ? '' : ` (${percent} %)`}`;
}

/** Builds the layer; techniques come out sorted by id, parents of scored sub-techniques expanded. */
export function buildNavigatorLayer(input: LayerInput): NavigatorLayer {
  const scored = new Map<string, NavigatorLayerTechnique>();
  for (const technique of input.techniques) {
    if (technique.attempts <= 0) continue;
    scored.set(technique.id, {
      techniqueID: technique.id,
      score: sharePercent(technique.correct, technique.attempts) ?? 0,
      comment: skillComment(technique.correct, technique.attempts),
      enabled: true,
    });
  }
  for (const technique of input.techniques) {
    const parent = technique.subtechniqueOf;
    if (!parent || technique.attempts <= 0) continue;
    const existing = scored.get(parent);
    if (existing) existing.showSubtechniques = true;
    else
      scored.set(parent, {
        techniqueID: parent,
        comment: 'Scored on its sub-techniques',
        enabled: true,
        showSubtechniques: true,
      });
  }
  const major = input.attackVersion.split('.')[0] ?? input.attackVersion;
  return {
    name: input.name,
    versions: { attack: major, navigator: NAVIGATOR_VERSION, layer: NAVIGATOR_LAYER_VERSION },
    domain: 'enterprise-attack',
    description: input.description,
    sorting: 0,
    layout: {
      layout: 'side',
      aggregateFunction: 'average',
      showID: true,
      showName: true,
      showAggregateScores: false,
      countUnscored: false,
      expandedSubtechniques: 'annotated',
    },
    hideDisabled: false,
    techniques: [...scored.values()].sort((a, b) => a.techniqueID.localeCompare(b.techniqueID)),
    gradient: { colors: [...SKILL_SCALE_COLORS], minValue: 0, maxValue: 100 },
    legendItems: [
      { label: 'Needs practice (0 % correct)', color: SKILL_SCALE_COLORS[0] },
      { label: 'Developing (50 % correct)', color: SKILL_SCALE_COLORS[1] },
      { label: 'Strong (100 % correct)', color: SKILL_SCALE_COLORS[2] },
    ],
    metadata: input.metadata ?? [],
    links: [],
    showTacticRowBackground: false,
    tacticRowBackground: '#dddddd',
    selectTechniquesAcrossTactics: true,
    selectSubtechniquesWithParent: false,
    selectVisibleTechniques: false,
  };
}
