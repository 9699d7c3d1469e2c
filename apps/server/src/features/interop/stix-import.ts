// Turns a validated STIX 2.1 bundle into a draft scenario for an author to finish (docs/interoperability.md):
// a threat report becomes technique-mapping and indicator-extraction steps over its own intelligence; an Attack
// Flow 2.0 bundle becomes a branching skeleton of its actions and conditions. Both end in a write step, the
// analyst's summary for their team. Whatever could not be mapped is listed in the summary, never dropped silently.
import { findTechnique, tactics, techniquesForCapec, type AttackTechnique } from '@tradecraft/shared/attack';
import { deriveScenarioId, type ScenarioFile, type TlpLabel } from '@tradecraft/shared';
import { ATTACK_FLOW_TYPES, type StixBundle, type StixObject } from './stix-validation.js';

type DraftStep = ScenarioFile['steps'][number];
type DraftArtifact = NonNullable<DraftStep['artifacts']>[number];
type ExtractFieldType = 'domain' | 'ip' | 'url' | 'email' | 'hash';

export interface StixImportSummary {
  /** What the draft was made from: `report` or `attack-flow`. */
  source: 'report' | 'attack-flow';
  steps: number;
  artifacts: number;
  techniques: string[];
  /** What the draft holds, sentence by sentence: its steps, artifacts and markings. */
  kept: string[];
  /** Objects and details the draft does not carry, each in a sentence naming the object. */
  notMapped: string[];
  /** What the author has to do before publishing. */
  toFinish: string[];
}

export interface StixImport {
  scenario: ScenarioFile;
  summary: StixImportSummary;
}

export class StixImportError extends Error {}

const MAX_STEPS = 60;
const MAX_ARTIFACTS_PER_STEP = 8;
const MAX_FIELDS_PER_STEP = 6;
const MAX_INDICATOR_STEPS = 3;

// The TLP marking definitions of STIX 2.1 (TLP 1.0, section 7.2.1.4) and of the TLP 2.0 extension, by id.
const TLP_BY_MARKING_ID: Record<string, TlpLabel> = {
  'marking-definition--613f2e26-407d-48c7-9eca-b8e91df99dc9': 'CLEAR',
  'marking-definition--34098fce-860f-48ae-8e50-ebd3cc5e41da': 'GREEN',
  'marking-definition--f88d31f6-486f-44da-b317-01333bde0b82': 'AMBER',
  'marking-definition--5e57c739-391a-4eb3-b6be-7d15ca92d5ed': 'RED',
  'marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487': 'CLEAR',
  'marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb': 'GREEN',
  'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421': 'AMBER',
  'marking-definition--939a9414-2ddd-4d32-a0cd-375ea402b003': 'AMBER+STRICT',
  'marking-definition--e828b379-4e03-4974-9ac4-e53a884c97c1': 'RED',
};

/** TLP 2.0 from the least to the most restrictive: an artifact takes the strictest marking of what it holds. */
const TLP_ORDER: readonly TlpLabel[] = ['CLEAR', 'GREEN', 'AMBER', 'AMBER+STRICT', 'RED'];

function stricter(a: TlpLabel | undefined, b: TlpLabel | undefined): TlpLabel | undefined {
  if (!a) return b;
  if (!b) return a;
  return TLP_ORDER.indexOf(b) > TLP_ORDER.indexOf(a) ? b : a;
}

const TLP_BY_NAME: Record<string, TlpLabel> = {
  white: 'CLEAR',
  clear: 'CLEAR',
  green: 'GREEN',
  amber: 'AMBER',
  'amber+strict': 'AMBER+STRICT',
  red: 'RED',
};

// ATT&CK's tactics, then the Lockheed Martin kill chain: the order attack patterns are played in.
const PHASE_ORDER = [
  ...tactics.map((tactic) => tactic.shortname),
  'weaponization',
  'delivery',
  'exploitation',
  'installation',
  'actions-on-objectives',
];

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** MITRE's prose without its citation markers and with its Markdown links as plain words. */
function plain(value: string): string {
  return value
    .replace(/\(Citation:[^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\((?:https?:\/\/[^)\s]+)\)/g, '$1')
    .replace(/[ \t]+([.,;:])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
}

function refs(object: StixObject | undefined, property: string): string[] {
  const value = object?.[property];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

interface ExternalReference {
  source_name?: string;
  external_id?: string;
  url?: string;
  description?: string;
}

function externalReferences(object: StixObject): ExternalReference[] {
  const value = object.external_references;
  return Array.isArray(value) ? (value as ExternalReference[]) : [];
}

/** What an object's technique maps to: an Enterprise technique, or an ATT&CK id of another domain (ICS, Mobile). */
type TechniqueMapping =
  | { kind: 'enterprise'; technique: AttackTechnique; accept: string[]; viaCapec?: string }
  | { kind: 'other-domain'; id: string; domain: string };

const ATTACK_ID = /^T\d{4}(?:\.\d{3})?$/;

function attackDomainOf(object: StixObject): string {
  const phases = Array.isArray(object.kill_chain_phases)
    ? (object.kill_chain_phases as { kill_chain_name?: string }[])
    : [];
  const names = phases.map((phase) => phase.kill_chain_name ?? '');
  if (names.includes('mitre-ics-attack')) return 'ATT&CK for ICS';
  if (names.includes('mitre-mobile-attack')) return 'ATT&CK for Mobile';
  return 'ATT&CK';
}

/**
 * The technique an object names: its `mitre-attack` external id or an Attack Flow action's `technique_id`; an id
 * of another ATT&CK domain (ICS, Mobile) as such; failing both, the Enterprise techniques whose own ATT&CK
 * entries name one of its CAPEC ids (capec-techniques.json): their common parent when they share one.
 */
function techniqueOf(object: StixObject): TechniqueMapping | undefined {
  const candidates = [
    text(object.technique_id),
    ...externalReferences(object)
      .filter((reference) => reference.source_name === 'mitre-attack')
      .map((reference) => reference.external_id),
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    // Attack Flow's own example writes "1598.003": the T is implied.
    const found = findTechnique(candidate) ?? findTechnique(`T${candidate}`);
    if (found) return { kind: 'enterprise', technique: found, accept: [found.id] };
  }
  for (const candidate of candidates) {
    const id = candidate?.trim().toUpperCase();
    if (id && ATTACK_ID.test(id)) return { kind: 'other-domain', id, domain: attackDomainOf(object) };
  }
  for (const reference of externalReferences(object)) {
    if (reference.source_name !== 'capec' || typeof reference.external_id !== 'string') continue;
    const found = techniquesForCapec(reference.external_id);
    if (found.length === 0) continue;
    const parents = new Set(found.map((technique) => technique.subtechnique_of ?? technique.id));
    const parent = parents.size === 1 ? findTechnique([...parents][0]!) : undefined;
    const technique = parent ?? found[0]!;
    const accept = [...new Set([technique.id, ...found.map((entry) => entry.id)])];
    return { kind: 'enterprise', technique, accept, viaCapec: reference.external_id.trim().toUpperCase() };
  }
  return undefined;
}

class Bundle {
  readonly byId = new Map<string, StixObject>();
  readonly notMapped: string[] = [];

  readonly objects: readonly StixObject[];

  constructor(objects: readonly StixObject[], warnings: readonly string[]) {
    this.notMapped.push(...warnings);
    // ATT&CK keeps revoked and deprecated objects in its collections for history; a draft uses only the live ones.
    const retired = objects.filter((object) => object.revoked === true || object.x_mitre_deprecated === true);
    if (retired.length > 0) {
      this.notMapped.push(
        `${retired.length} revoked or deprecated object(s) (${retired
          .slice(0, 3)
          .map((object) => this.name(object))
          .join(', ')}${retired.length > 3 ? ', ...' : ''}): left out, as their publisher retired them.`,
      );
    }
    const retiredIds = new Set(retired.map((object) => object.id));
    this.objects = objects.filter((object) => !retiredIds.has(object.id));
    for (const object of this.objects) this.byId.set(object.id, object);
  }

  ofType(type: string): StixObject[] {
    return this.objects.filter((object) => object.type === type);
  }

  name(object: StixObject): string {
    return text(object.name) ?? object.id;
  }

  /**
   * The strictest TLP among an object's markings, TLP 1.0 read as 2.0 (WHITE is CLEAR): a marking definition
   * known by its published id, a TLP 1.0 `definition.tlp`, a TLP 2.0 extension's `tlp_2_0`, or a `TLP:` name.
   */
  tlp(object: StixObject | undefined): TlpLabel | undefined {
    let strictest: TlpLabel | undefined;
    for (const ref of refs(object, 'object_marking_refs')) {
      strictest = stricter(strictest, TLP_BY_MARKING_ID[ref] ?? this.tlpOfMarking(this.byId.get(ref)));
    }
    return strictest;
  }

  private tlpOfMarking(marking: StixObject | undefined): TlpLabel | undefined {
    if (!marking) return undefined;
    const definition = marking.definition as { tlp?: unknown } | undefined;
    const extensions = marking.extensions as Record<string, { tlp_2_0?: unknown }> | undefined;
    const extension = extensions ? Object.values(extensions).find((entry) => text(entry?.tlp_2_0)) : undefined;
    const named = text(extension?.tlp_2_0) ?? text(definition?.tlp) ?? text(marking.name)?.replace(/^TLP:\s*/i, '');
    return named ? TLP_BY_NAME[named.toLowerCase()] : undefined;
  }

  creatorName(object: StixObject): string | undefined {
    const ref = text(object.created_by_ref);
    const creator = ref ? this.byId.get(ref) : undefined;
    return creator ? text(creator.name) : undefined;
  }

  sources(objects: readonly StixObject[]): NonNullable<ScenarioFile['sources']> {
    const seen = new Set<string>();
    const sources: NonNullable<ScenarioFile['sources']> = [];
    let left = 0;
    for (const object of objects) {
      for (const reference of externalReferences(object)) {
        // ATT&CK's and CAPEC's own pages name the technique a step asks for: they are the answer, not a source.
        if (reference.source_name === 'mitre-attack' || reference.source_name === 'capec') continue;
        if (!reference.url || !/^https?:\/\//i.test(reference.url) || seen.has(reference.url)) continue;
        seen.add(reference.url);
        if (sources.length === 10) {
          left += 1;
          continue;
        }
        const title = text(reference.description) ?? text(reference.source_name) ?? reference.url;
        sources.push({ title: clip(title, 200), url: reference.url });
      }
    }
    if (left > 0)
      this.notMapped.push(`${left} more source(s) after the first 10: a scenario lists at most 10 sources.`);
    return sources;
  }

  /** An artifact drawn from an object's own words: malware, tools, infrastructure, a report, an asset. */
  artifactOf(object: StixObject, kind: DraftArtifact['kind'], heading: string): DraftArtifact {
    const description = text(object.description);
    const lines = [description ? plain(description) : `(${object.type} with no description)`];
    for (const property of ['malware_types', 'tool_types', 'infrastructure_types', 'report_types', 'aliases']) {
      const values = refs(object, property);
      if (values.length > 0) lines.push(`${property.replace(/_/g, ' ')}: ${values.join(', ')}`);
    }
    const artifact: DraftArtifact = {
      kind,
      title: clip(`${heading}: ${this.name(object)}`, 160),
      content: clip(lines.join('\n\n'), 8000),
    };
    const source = this.creatorName(object);
    if (source) artifact.source = clip(source, 160);
    const date = text(object.published) ?? text(object.first_seen) ?? text(object.created);
    if (date) artifact.date = date.slice(0, 10);
    const tlp = this.tlp(object);
    if (tlp) artifact.tlp = tlp;
    return artifact;
  }

  /** The relationships of a type from an object, by target, built once. */
  private relationIndex?: Map<string, StixObject[]>;

  relationsFrom(sourceId: string, type: string): StixObject[] {
    if (!this.relationIndex) {
      this.relationIndex = new Map();
      for (const relation of this.ofType('relationship')) {
        const key = `${String(relation.source_ref)} ${String(relation.relationship_type)}`;
        const list = this.relationIndex.get(key) ?? [];
        list.push(relation);
        this.relationIndex.set(key, list);
      }
    }
    return this.relationIndex.get(`${sourceId} ${type}`) ?? [];
  }
}

// --- indicators ------------------------------------------------------------------------------------------

interface PatternValue {
  type: ExtractFieldType;
  label: string;
  value: string;
}

const PATTERN_TERMS: { pattern: RegExp; type: ExtractFieldType; label: string }[] = [
  { pattern: /ipv[46]-addr:value\s*=\s*'([^']+)'/g, type: 'ip', label: 'IP address' },
  { pattern: /domain-name:value\s*=\s*'([^']+)'/g, type: 'domain', label: 'Domain' },
  { pattern: /url:value\s*=\s*'([^']+)'/g, type: 'url', label: 'URL' },
  { pattern: /email-addr:value\s*=\s*'([^']+)'/g, type: 'email', label: 'Email address' },
  { pattern: /file:hashes\.(?:'([^']+)'|([A-Za-z0-9-]+))\s*=\s*'([0-9a-fA-F]+)'/g, type: 'hash', label: 'File hash' },
];

/** The observable values a STIX pattern compares for equality (`[ipv4-addr:value = '198.51.100.7']`). */
export function patternValues(pattern: string): PatternValue[] {
  const values: PatternValue[] = [];
  for (const term of PATTERN_TERMS) {
    for (const match of pattern.matchAll(term.pattern)) {
      if (term.type === 'hash') {
        values.push({
          type: 'hash',
          label: `${(match[1] ?? match[2] ?? 'file').toUpperCase()} hash`,
          value: match[3]!,
        });
      } else {
        values.push({ type: term.type, label: term.label, value: match[1]! });
      }
    }
  }
  return values;
}

interface AskedIndicator {
  indicator: StixObject;
  values: PatternValue[];
  tlp: TlpLabel | undefined;
}

function feedArtifact(bundle: Bundle, title: string, group: readonly AskedIndicator[]): DraftArtifact {
  const feed: DraftArtifact = {
    kind: 'feed',
    title,
    content: clip(
      group
        .map(({ indicator }) =>
          [text(indicator.name), text(indicator.description), text(indicator.pattern)].filter(Boolean).join('\n'),
        )
        .join('\n\n'),
      8000,
    ),
    indicators: group.flatMap(({ indicator, values }) => {
      const context = text(indicator.description);
      return values.map((value) => ({
        type: value.type,
        value: value.value,
        ...(context ? { context: clip(context, 300) } : {}),
      }));
    }),
  };
  // The feed holds these indicators, so it carries the strictest of their markings (they share one here).
  let tlp: TlpLabel | undefined;
  for (const entry of group) tlp = stricter(tlp, entry.tlp);
  if (tlp) feed.tlp = tlp;
  void bundle;
  return feed;
}

/**
 * Indicator steps: each indicator is asked in one step only (its values together, at most six), a value two
 * indicators share is asked once, and a step's feed is split by marking so every feed artifact carries the TLP
 * of exactly what it holds.
 */
function indicatorSteps(bundle: Bundle, indicators: readonly StixObject[], firstNumber: number): DraftStep[] {
  const asked = new Set<string>();
  const usable: AskedIndicator[] = [];
  for (const indicator of indicators) {
    const pattern = text(indicator.pattern);
    const found = indicator.pattern_type === 'stix' && pattern ? patternValues(pattern) : [];
    if (found.length === 0) {
      bundle.notMapped.push(
        `Indicator "${bundle.name(indicator)}": its pattern (${String(indicator.pattern_type ?? 'unknown')}) compares no IP address, domain, URL, email address or file hash, so it became no question.`,
      );
      continue;
    }
    const values: PatternValue[] = [];
    for (const value of found) {
      const key = `${value.type}:${value.value.toLowerCase()}`;
      if (asked.has(key)) continue;
      asked.add(key);
      values.push(value);
    }
    if (values.length === 0) {
      bundle.notMapped.push(
        `Indicator "${bundle.name(indicator)}": every value it compares is asked with another indicator, so it is not asked again.`,
      );
      continue;
    }
    if (values.length > MAX_FIELDS_PER_STEP) {
      bundle.notMapped.push(
        `Indicator "${bundle.name(indicator)}": it compares ${values.length} values; its step asks the first ${MAX_FIELDS_PER_STEP} (the feed shows the whole pattern).`,
      );
    }
    usable.push({ indicator, values: values.slice(0, MAX_FIELDS_PER_STEP), tlp: bundle.tlp(indicator) });
  }

  const groups: AskedIndicator[][] = [];
  let fields = 0;
  for (const entry of usable) {
    const current = groups.at(-1);
    if (!current || fields + entry.values.length > MAX_FIELDS_PER_STEP) {
      groups.push([entry]);
      fields = entry.values.length;
    } else {
      current.push(entry);
      fields += entry.values.length;
    }
  }
  if (groups.length > MAX_INDICATOR_STEPS) {
    const left = groups.slice(MAX_INDICATOR_STEPS).flat();
    bundle.notMapped.push(
      `${left.length} indicator(s) (${left
        .slice(0, 3)
        .map((entry) => bundle.name(entry.indicator))
        .join(
          ', ',
        )}${left.length > 3 ? ', ...' : ''}): the draft asks about at most ${MAX_INDICATOR_STEPS} feeds, so these are not in it.`,
    );
  }

  return groups.slice(0, MAX_INDICATOR_STEPS).map((group, index) => {
    const number = firstNumber + index;
    const byMarking = new Map<string, AskedIndicator[]>();
    for (const entry of group) {
      const key = entry.tlp ?? 'unmarked';
      byMarking.set(key, [...(byMarking.get(key) ?? []), entry]);
    }
    const title = `Indicator feed, part ${index + 1}`;
    const artifacts = [...byMarking.entries()].map(([key, entries]) =>
      feedArtifact(bundle, byMarking.size > 1 && key !== 'unmarked' ? `${title} (TLP:${key})` : title, entries),
    );
    const values = group.flatMap((entry) => entry.values);
    return {
      kind: 'extract',
      id: `indicators-${number}`,
      title: 'Pull the indicators for the blocklist',
      description:
        'The feed below came with the report. Copy out each value the detection team asked for, exactly as ' +
        'it should go into the blocklist.',
      artifacts,
      fields: values.map((value, field) => ({
        label: `${value.label} ${field + 1}`,
        type: value.type,
        accept: [value.value],
      })),
    };
  });
}

// --- reports ---------------------------------------------------------------------------------------------

function phaseRank(object: StixObject, technique: AttackTechnique | undefined): number {
  const phases = Array.isArray(object.kill_chain_phases)
    ? (object.kill_chain_phases as { phase_name?: string }[]).map((phase) => phase.phase_name ?? '')
    : [];
  let best = PHASE_ORDER.length;
  for (const name of phases.length > 0 ? phases : (technique?.tactics ?? [])) {
    const rank = PHASE_ORDER.indexOf(name);
    if (rank >= 0 && rank < best) best = rank;
  }
  return best;
}

function techniqueStep(id: string, title: string, situation: string, mapping: TechniqueMapping): DraftStep {
  const base = { kind: 'extract' as const, id, title: clip(title, 160), skill: 'analysis' as const };
  if (mapping.kind === 'other-domain') {
    // The scenario checker knows Enterprise techniques only: the id is asked and checked as text.
    return {
      ...base,
      description: clip(`${situation}\n\nWhich ${mapping.domain} technique is this? Give its id.`, 2000),
      fields: [{ label: `${mapping.domain} technique id`, type: 'text' as const, accept: [mapping.id] }],
    };
  }
  return {
    ...base,
    description: clip(`${situation}\n\nWhich ATT&CK technique is this? Give its id.`, 2000),
    mitre_attack: mapping.technique.id,
    fields: [{ label: 'ATT&CK technique id', type: 'technique' as const, accept: mapping.accept }],
  };
}

function summaryStep(subject: string, techniqueIds: readonly string[], modelAnswer: string): DraftStep {
  return {
    kind: 'write',
    id: 'summary',
    title: 'Brief your team',
    description: `Close the case: write the short summary your team will read about ${clip(subject, 200)}.`,
    prompt:
      'In at most 120 words, marked with its TLP, say what happened, which techniques were used and what the ' +
      'team should do next. Use the ICD 203 terms for any likelihood.',
    max_words: 120,
    checks: {
      tlp: true,
      estimative_language: true,
      ...(techniqueIds.length > 0 ? { must_mention: techniqueIds.slice(0, 20) } : {}),
    },
    rubric: [
      { criterion: 'States what happened, in order, without padding', points: 2 },
      { criterion: 'Names the techniques with their ATT&CK ids', points: 1 },
      { criterion: 'Gives the team an action it can take', points: 1 },
    ],
    model_answer: clip(modelAnswer, 8000),
  };
}

const TITLE_TYPES = ['report', 'intrusion-set', 'threat-actor', 'campaign'];

function scenarioTypeOf(bundle: Bundle, subject: StixObject): string {
  const words = [
    ...refs(subject, 'report_types'),
    ...bundle.ofType('malware').flatMap((m) => refs(m, 'malware_types')),
  ];
  if (words.includes('ransomware')) return 'Ransomware';
  if (bundle.ofType('intrusion-set').length > 0 || bundle.ofType('threat-actor').length > 0) return 'Foreign Adversary';
  return 'Threat Intelligence';
}

function mappingKey(mapping: TechniqueMapping): string {
  return mapping.kind === 'enterprise' ? mapping.technique.id : mapping.id;
}

function fromReport(bundle: Bundle): StixImport {
  const subject = TITLE_TYPES.map((type) => bundle.ofType(type)[0]).find(Boolean);
  // What the subject did with a technique, in the publisher's words (ATT&CK's procedure examples sit on the
  // `uses` relationships): a better situation than the technique's own description, which names it.
  const procedures = new Map<string, string>();
  if (subject) {
    for (const relation of bundle.relationsFrom(subject.id, 'uses')) {
      const description = text(relation.description);
      if (description && typeof relation.target_ref === 'string')
        procedures.set(relation.target_ref, plain(description));
    }
  }
  const patterns = bundle
    .ofType('attack-pattern')
    .map((pattern, index) => ({ pattern, index, mapping: techniqueOf(pattern) }));
  const mapped: { pattern: StixObject; index: number; mapping: TechniqueMapping }[] = [];
  const askedBy = new Map<string, StixObject>();
  for (const { pattern, index, mapping } of patterns) {
    if (!mapping) {
      bundle.notMapped.push(
        `Attack pattern "${bundle.name(pattern)}": it names no ATT&CK technique (an external reference from "mitre-attack", or a CAPEC id ATT&CK lists), so it became no step.`,
      );
      continue;
    }
    const first = askedBy.get(mappingKey(mapping));
    if (first) {
      bundle.notMapped.push(
        `Attack pattern "${bundle.name(pattern)}": the step for "${bundle.name(first)}" already asks for ${mappingKey(mapping)}, so it is not asked twice.`,
      );
      continue;
    }
    askedBy.set(mappingKey(mapping), pattern);
    if (mapping.kind === 'enterprise' && mapping.viaCapec) {
      bundle.notMapped.push(
        `Attack pattern "${bundle.name(pattern)}" names ${mapping.viaCapec} only: its step asks for ${mapping.technique.id} ${mapping.technique.name}, the technique ATT&CK lists for that CAPEC id${mapping.accept.length > 1 ? ` (and accepts ${mapping.accept.slice(1).join(', ')})` : ''}.`,
      );
    } else if (mapping.kind === 'other-domain') {
      bundle.notMapped.push(
        `Attack pattern "${bundle.name(pattern)}": ${mapping.id} is an ${mapping.domain} technique, outside the Enterprise dataset scenarios are checked against, so its step asks for the id as text and carries no technique.`,
      );
    }
    mapped.push({ pattern, index, mapping });
  }
  const rank = (entry: (typeof mapped)[number]) =>
    phaseRank(entry.pattern, entry.mapping.kind === 'enterprise' ? entry.mapping.technique : undefined);
  mapped.sort((a, b) => rank(a) - rank(b) || a.index - b.index);

  const steps: DraftStep[] = mapped.map(({ pattern, mapping }, index) =>
    techniqueStep(
      `technique-${index + 1}`,
      `Map behaviour ${index + 1} of ${mapped.length}`,
      procedures.get(pattern.id) ??
        (text(pattern.description) ? plain(text(pattern.description)!) : undefined) ??
        `The report describes this behaviour: ${bundle.name(pattern)}.`,
      mapping,
    ),
  );
  steps.push(...indicatorSteps(bundle, bundle.ofType('indicator'), steps.length + 1));
  if (steps.length === 0) {
    throw new StixImportError(
      'The bundle has no attack pattern with an ATT&CK id, no indicator with a usable pattern and no Attack Flow: there is nothing to make steps from.',
    );
  }

  // The case file: the report itself, then the malware, tools and infrastructure it describes, on the first step.
  const caseFile: DraftArtifact[] = [];
  if (subject) caseFile.push(bundle.artifactOf(subject, 'report', subject.type === 'report' ? 'Report' : 'Profile'));
  const crowded: string[] = [];
  for (const [type, heading] of [
    ['malware', 'Malware'],
    ['tool', 'Tool'],
    ['infrastructure', 'Infrastructure'],
    ['vulnerability', 'Vulnerability'],
  ] as const) {
    for (const object of bundle.ofType(type)) {
      if (caseFile.length < MAX_ARTIFACTS_PER_STEP - (steps[0]!.artifacts?.length ?? 0)) {
        caseFile.push(bundle.artifactOf(object, 'other', heading));
      } else {
        crowded.push(`${heading} "${bundle.name(object)}"`);
      }
    }
  }
  if (crowded.length > 0) {
    bundle.notMapped.push(
      `${crowded.length} more object(s) for the case file (${crowded.slice(0, 3).join(', ')}${crowded.length > 3 ? ', ...' : ''}): a step shows at most ${MAX_ARTIFACTS_PER_STEP} artifacts.`,
    );
  }
  steps[0] = { ...steps[0]!, artifacts: [...caseFile, ...(steps[0]!.artifacts ?? [])] };

  const name = subject ? bundle.name(subject) : 'Imported threat report';
  const enterprise = mapped.flatMap(({ mapping }) => (mapping.kind === 'enterprise' ? [mapping.technique] : []));
  steps.push(
    summaryStep(
      name,
      mapped.map(({ mapping }) => mappingKey(mapping)),
      `TLP:CLEAR. ${text(subject?.description) ? plain(text(subject?.description)!) : name} Techniques: ${
        [
          ...enterprise.map((technique) => `${technique.id} ${technique.name}`),
          ...mapped.flatMap(({ mapping, pattern }) =>
            mapping.kind === 'other-domain' ? [`${mapping.id} ${bundle.name(pattern)}`] : [],
          ),
        ].join('; ') || 'none mapped'
      }.`,
    ),
  );
  return finish(bundle, 'report', subject, name, scenarioTypeOf(bundle, subject ?? bundle.objects[0]!), steps);
}

// --- Attack Flow -----------------------------------------------------------------------------------------

function fromAttackFlow(bundle: Bundle): StixImport {
  const flow = bundle.ofType('attack-flow')[0];
  const actions = bundle.ofType('attack-action');
  if (actions.length === 0) throw new StixImportError('The Attack Flow has no attack-action to make steps from.');
  const stepIdOf = new Map<string, string>();
  actions.forEach((action, index) => stepIdOf.set(action.id, `action-${index + 1}`));

  // Conditions with a false branch become decisions; the others only pass the run on (their words go to feedback).
  const conditions = bundle.ofType('attack-condition');
  conditions
    .filter((condition) => refs(condition, 'on_false_refs').length > 0)
    .forEach((condition, index) => stepIdOf.set(condition.id, `condition-${index + 1}`));

  const successors = (object: StixObject): string[] => {
    if (object.type === 'attack-condition') return [...refs(object, 'on_true_refs'), ...refs(object, 'on_false_refs')];
    return refs(object, 'effect_refs');
  };
  const parents = new Map<string, number>();
  for (const object of bundle.objects)
    for (const next of successors(object)) parents.set(next, (parents.get(next) ?? 0) + 1);

  // A step's order: reverse postorder of a walk from the flow's starts, so every branch that meets an AND
  // operator is played one after another before the step it leads to. An explicit stack, never recursion: a
  // chain of 10,000 actions is as deep as it is long.
  const order: string[] = [];
  const visited = new Set<string>();
  const visit = (root: string): void => {
    const stack: { id: string; next: string[] }[] = [];
    const enter = (id: string) => {
      if (visited.has(id)) return;
      visited.add(id);
      const object = bundle.byId.get(id);
      if (!object) return;
      // Successors are walked last first, as the order is reversed at the end.
      stack.push({ id, next: [...successors(object)].reverse() });
    };
    enter(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const next = top.next.shift();
      if (next === undefined) {
        stack.pop();
        order.push(top.id);
      } else {
        enter(next);
      }
    }
  };
  const starts = refs(flow, 'start_refs').filter((id) => bundle.byId.has(id));
  const roots =
    starts.length > 0 ? starts : actions.filter((action) => !parents.has(action.id)).map((action) => action.id);
  for (let index = roots.length - 1; index >= 0; index -= 1) visit(roots[index]!);
  for (const action of actions) visit(action.id);
  order.reverse();

  /** Where a step goes after `id`: the step an operator or a pass-through condition leads to, or file order. */
  const target = (start: string): string | undefined => {
    const seen = new Set<string>();
    let id: string | undefined = start;
    while (id !== undefined && !seen.has(id)) {
      seen.add(id);
      const object = bundle.byId.get(id);
      if (!object) return undefined;
      if (stepIdOf.has(id)) return id;
      if (object.type === 'attack-operator') {
        // AND: every branch must happen, so the branches are played in file order and meet at the join.
        if (object.operator === 'AND') return undefined;
        id = refs(object, 'effect_refs')[0];
      } else if (object.type === 'attack-condition') {
        id = refs(object, 'on_true_refs')[0];
      } else {
        return undefined;
      }
    }
    return undefined;
  };

  // What points at each action (assets and other objects related to it), indexed once.
  const relatedTo = new Map<string, StixObject[]>();
  for (const relation of bundle.ofType('relationship')) {
    const related = bundle.byId.get(String(relation.source_ref));
    if (!related || ATTACK_FLOW_TYPES.has(related.type)) continue;
    const key = String(relation.target_ref);
    relatedTo.set(key, [...(relatedTo.get(key) ?? []), related]);
  }

  const flowSteps: { objectId: string; step: DraftStep }[] = [];
  const techniques: AttackTechnique[] = [];
  const branchLeaves = new Set<string>();
  for (const id of order) {
    const object = bundle.byId.get(id)!;
    const stepId = stepIdOf.get(id);
    if (!stepId) continue;
    if (object.type === 'attack-action') {
      const mapping = techniqueOf(object);
      const technique = mapping?.kind === 'enterprise' ? mapping.technique : undefined;
      const situation = text(object.description) ?? bundle.name(object);
      const artifacts = refs(object, 'asset_refs')
        .map((ref) => bundle.byId.get(ref))
        .filter((asset): asset is StixObject => Boolean(asset))
        .concat(relatedTo.get(id) ?? [])
        .slice(0, MAX_ARTIFACTS_PER_STEP)
        .map((object) => bundle.artifactOf(object, 'other', object.type === 'attack-asset' ? 'Asset' : 'Related'));
      let step: DraftStep;
      if (mapping) {
        if (technique) techniques.push(technique);
        step = techniqueStep(stepId, clip(situation.split(/(?<=\.)\s/)[0]!, 160), situation, mapping);
      } else {
        bundle.notMapped.push(
          `Attack action "${bundle.name(object)}": its technique (${String(object.technique_id ?? 'none')}) is not an ATT&CK v18.1 technique, so the step asks for the behaviour in words.`,
        );
        step = {
          kind: 'extract',
          id: stepId,
          title: clip(bundle.name(object), 160),
          description: clip(`${situation}\n\nName what the adversary did in a few words.`, 2000),
          fields: [{ label: 'What the adversary did', type: 'text', accept: [clip(bundle.name(object), 500)] }],
        };
      }
      if (artifacts.length > 0) step.artifacts = artifacts;
      const effects = refs(object, 'effect_refs');
      const passes = effects
        .map((ref) => bundle.byId.get(ref))
        .filter((effect): effect is StixObject => effect?.type === 'attack-condition' && !stepIdOf.has(effect.id));
      if (passes.length > 0) {
        step.feedback = clip(passes.map((condition) => `Result: ${text(condition.description) ?? ''}`).join(' '), 1000);
      }
      const next = effects.length === 1 ? target(effects[0]!) : undefined;
      if (next) (step as { next_step?: string }).next_step = stepIdOf.get(next);
      flowSteps.push({ objectId: id, step });
    } else {
      const whenTrue = refs(object, 'on_true_refs')
        .map((ref) => target(ref))
        .find(Boolean);
      const whenFalse = refs(object, 'on_false_refs')
        .map((ref) => target(ref))
        .find(Boolean);
      const describe = (ref: string | undefined) => (ref ? bundle.name(bundle.byId.get(ref)!) : 'the flow ends');
      const step: DraftStep = {
        kind: 'choice',
        id: stepId,
        title: 'Does the condition hold?',
        description: clip(
          `${text(object.description) ?? 'A condition of the flow.'}\n\nFrom what you have seen, does this hold?`,
          2000,
        ),
        scored: false,
        options: [
          { text: clip(`Yes: ${describe(whenTrue)}`, 500), next_step: whenTrue ? stepIdOf.get(whenTrue)! : 'summary' },
          {
            text: clip(`No: ${describe(whenFalse)}`, 500),
            next_step: whenFalse ? stepIdOf.get(whenFalse)! : 'summary',
          },
        ],
        correct_option: 0,
      };
      if (whenTrue) branchLeaves.add(whenTrue);
      if (whenFalse) branchLeaves.add(whenFalse);
      flowSteps.push({ objectId: id, step });
    }
  }
  for (const operator of bundle.ofType('attack-operator')) {
    bundle.notMapped.push(
      `Operator ${String(operator.operator)} (${operator.id}): ${
        operator.operator === 'AND' ? 'its branches are played one after another' : 'each branch leads on to its step'
      }; the scenario has no operator of its own.`,
    );
  }
  // A branch of a decision that reaches an end goes to the summary rather than into the other branch.
  const stepById = new Map(flowSteps.map((entry) => [entry.step.id, entry.step as { next_step?: string }]));
  const reachableFromBranch = new Set<string>();
  for (const leaf of branchLeaves) {
    let stepId = stepIdOf.get(leaf);
    while (stepId && !reachableFromBranch.has(stepId)) {
      reachableFromBranch.add(stepId);
      stepId = stepById.get(stepId)?.next_step;
    }
  }
  for (const { step } of flowSteps) {
    const flowing = step as { next_step?: string; kind?: string };
    if (flowing.kind !== 'choice' && !flowing.next_step && reachableFromBranch.has(step.id))
      flowing.next_step = 'summary';
  }

  const steps = flowSteps.map((entry) => entry.step);
  const name = flow ? bundle.name(flow) : 'Imported Attack Flow';
  const distinct = [...new Map(techniques.map((technique) => [technique.id, technique])).values()];
  steps.push(
    summaryStep(
      name,
      distinct.map((technique) => technique.id),
      `TLP:CLEAR. ${text(flow?.description) ?? name} The flow: ${actions
        .map((action) => bundle.name(action))
        .join(
          ', then ',
        )}. Techniques: ${distinct.map((technique) => `${technique.id} ${technique.name}`).join('; ') || 'none mapped'}.`,
    ),
  );
  return finish(bundle, 'attack-flow', flow, name, 'Threat Intelligence', steps);
}

function finish(
  bundle: Bundle,
  source: StixImportSummary['source'],
  subject: StixObject | undefined,
  name: string,
  type: string,
  allSteps: DraftStep[],
): StixImport {
  let steps = allSteps;
  if (steps.length > MAX_STEPS) {
    bundle.notMapped.push(
      `${steps.length - MAX_STEPS} step(s) beyond the first ${MAX_STEPS}: a scenario has at most ${MAX_STEPS}.`,
    );
    steps = [...steps.slice(0, MAX_STEPS - 1), steps[steps.length - 1]!];
    // A step that led to one cut off leads to the summary instead.
    const kept = new Set(steps.map((step) => step.id));
    const onward = (next: string | undefined) => (next === undefined || kept.has(next) ? next : 'summary');
    steps = steps.map((step) => {
      const flowing = step as { next_step?: string; options?: { next_step?: string }[] };
      const copy = { ...step } as typeof flowing;
      if (flowing.next_step !== undefined) copy.next_step = onward(flowing.next_step);
      if (flowing.options)
        copy.options = flowing.options.map((option) => ({ ...option, next_step: onward(option.next_step) }));
      return copy as DraftStep;
    });
  }
  const subjectText = text(subject?.description);
  const description = subjectText ? plain(subjectText) : `Imported from a STIX 2.1 bundle: ${name}.`;
  const sources = bundle.sources(
    subject ? [subject, ...bundle.ofType('attack-pattern')] : bundle.ofType('attack-pattern'),
  );
  const scenario: ScenarioFile = {
    id: deriveScenarioId(name),
    name: clip(name, 120),
    type,
    difficulty: 3,
    description: clip(description, 400),
    ...(sources.length > 0 ? { sources } : {}),
    steps,
  };
  const techniques = [...new Set(steps.map((step) => step.mitre_attack).filter((id): id is string => Boolean(id)))];
  if (source === 'report') {
    for (const type of TITLE_TYPES) {
      for (const other of bundle.ofType(type)) {
        if (other === subject) continue;
        bundle.notMapped.push(
          `${type[0]!.toUpperCase()}${type.slice(1).replace(/-/g, ' ')} "${bundle.name(other)}": the case file is made of one subject ("${name}"), so it is not in the draft.`,
        );
      }
    }
  }
  return {
    scenario,
    summary: {
      source,
      steps: steps.length,
      artifacts: steps.reduce((sum, step) => sum + (step.artifacts?.length ?? 0), 0),
      techniques,
      kept: keptSummary(steps, sources.length),
      notMapped: bundle.notMapped,
      toFinish: [
        'Read each step as a trainee would: the titles and descriptions come from the bundle and may give answers away.',
        'Choose the difficulty (the draft says 3) and the scenario type.',
        ...(source === 'attack-flow'
          ? ['Check each condition decision: the draft treats "Yes" as the expected answer and scores none of them.']
          : []),
        "Adjust the summary step's rubric and model answer.",
      ],
    },
  };
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the draft holds, counted from the steps themselves, so the summary cannot claim what was not kept. */
function keptSummary(steps: readonly DraftStep[], sourceCount: number): string[] {
  let techniqueSteps = 0;
  let otherDomainSteps = 0;
  let indicatorSteps = 0;
  let indicatorValues = 0;
  let decisions = 0;
  let wordSteps = 0;
  const artifacts = new Map<string, number>();
  const marked = new Map<string, number>();
  let unmarked = 0;
  for (const step of steps) {
    const fields = step.kind === 'extract' ? step.fields : [];
    if (step.kind === 'choice') decisions += 1;
    else if (step.mitre_attack) techniqueSteps += 1;
    else if (fields.some((field) => field.label.endsWith('technique id'))) otherDomainSteps += 1;
    else if (step.id.startsWith('indicators-')) {
      indicatorSteps += 1;
      indicatorValues += fields.length;
    } else if (step.kind === 'extract') wordSteps += 1;
    for (const artifact of step.artifacts ?? []) {
      const heading =
        artifact.kind === 'feed' ? 'indicator feed' : (artifact.title?.split(':')[0] ?? 'artifact').toLowerCase();
      artifacts.set(heading, (artifacts.get(heading) ?? 0) + 1);
      if (artifact.tlp) marked.set(artifact.tlp, (marked.get(artifact.tlp) ?? 0) + 1);
      else unmarked += 1;
    }
  }
  const parts = [
    techniqueSteps > 0 ? `${count(techniqueSteps, 'step')} asking for an ATT&CK technique` : '',
    otherDomainSteps > 0 ? `${count(otherDomainSteps, 'step')} asking for an ICS or Mobile technique id as text` : '',
    indicatorSteps > 0
      ? `${count(indicatorSteps, 'step')} asking for ${count(indicatorValues, 'indicator value')}`
      : '',
    wordSteps > 0 ? `${count(wordSteps, 'step')} asking for a behaviour in words` : '',
    decisions > 0 ? `${count(decisions, 'decision')}` : '',
    'the summary step',
  ].filter(Boolean);
  const kept = [`${count(steps.length, 'step')}: ${parts.join(', ')}.`];
  const totalArtifacts = [...artifacts.values()].reduce((sum, n) => sum + n, 0);
  if (totalArtifacts > 0) {
    kept.push(
      `${count(totalArtifacts, 'artifact')}: ${[...artifacts]
        .map(([heading, n]) =>
          ['malware', 'related', 'infrastructure'].includes(heading) ? `${n} ${heading}` : count(n, heading),
        )
        .join(', ')}.`,
    );
    kept.push(
      marked.size > 0
        ? `TLP markings kept: ${[...marked].map(([tlp, n]) => `${n} ${tlp}`).join(', ')}${unmarked > 0 ? `; ${unmarked} unmarked` : ''} (each artifact carries the strictest marking of what it holds).`
        : 'No artifact is TLP-marked: the bundle marked none of what they hold.',
    );
  }
  if (sourceCount > 0) kept.push(`${count(sourceCount, 'source')} from the external references.`);
  return kept;
}

/** A draft scenario and what the import did, from a bundle that passed validateStixBundle. */
export function scenarioFromStix(stixBundle: StixBundle, warnings: readonly string[] = []): StixImport {
  const bundle = new Bundle(stixBundle.objects, warnings);
  return bundle.ofType('attack-action').length > 0 ? fromAttackFlow(bundle) : fromReport(bundle);
}
