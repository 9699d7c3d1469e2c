// Turns a validated STIX 2.1 bundle into a draft scenario for an author to finish (docs/interoperability.md):
// a threat report becomes technique-mapping and indicator-extraction steps over its own intelligence; an Attack
// Flow 2.0 bundle becomes a branching skeleton of its actions and conditions. Both end in a write step, the
// analyst's summary for their team. Whatever could not be mapped is listed in the summary, never dropped silently.
import { findTechnique, tactics, type AttackTechnique } from '@tradecraft/shared/attack';
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

/** The ATT&CK technique an object names: its `mitre-attack` external id, or an Attack Flow action's `technique_id`. */
function techniqueOf(object: StixObject): AttackTechnique | undefined {
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
    if (found) return found;
  }
  return undefined;
}

class Bundle {
  readonly byId = new Map<string, StixObject>();
  readonly notMapped: string[] = [];

  constructor(readonly objects: readonly StixObject[]) {
    for (const object of objects) this.byId.set(object.id, object);
  }

  ofType(type: string): StixObject[] {
    return this.objects.filter((object) => object.type === type);
  }

  name(object: StixObject): string {
    return text(object.name) ?? object.id;
  }

  tlp(object: StixObject | undefined): TlpLabel | undefined {
    for (const ref of refs(object, 'object_marking_refs')) {
      const known = TLP_BY_MARKING_ID[ref];
      if (known) return known;
      const marking = this.byId.get(ref);
      const definition = marking?.definition as { tlp?: unknown } | undefined;
      const named = text(definition?.tlp) ?? text(marking?.name)?.replace(/^TLP:\s*/i, '');
      if (named && TLP_BY_NAME[named.toLowerCase()]) return TLP_BY_NAME[named.toLowerCase()];
    }
    return undefined;
  }

  creatorName(object: StixObject): string | undefined {
    const ref = text(object.created_by_ref);
    const creator = ref ? this.byId.get(ref) : undefined;
    return creator ? text(creator.name) : undefined;
  }

  sources(objects: readonly StixObject[]): NonNullable<ScenarioFile['sources']> {
    const seen = new Set<string>();
    const sources: NonNullable<ScenarioFile['sources']> = [];
    for (const object of objects) {
      for (const reference of externalReferences(object)) {
        if (!reference.url || !/^https?:\/\//i.test(reference.url) || seen.has(reference.url)) continue;
        seen.add(reference.url);
        if (sources.length === 10) {
          this.notMapped.push(`Source ${reference.url}: a scenario lists at most 10 sources.`);
          continue;
        }
        const title = text(reference.description) ?? text(reference.source_name) ?? reference.url;
        sources.push({ title: clip(title, 200), url: reference.url });
      }
    }
    return sources;
  }

  /** An artifact drawn from an object's own words: malware, tools, infrastructure, a report, an asset. */
  artifactOf(object: StixObject, kind: DraftArtifact['kind'], heading: string): DraftArtifact {
    const lines = [text(object.description) ?? `(${object.type} with no description)`];
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

function indicatorSteps(bundle: Bundle, indicators: readonly StixObject[], firstNumber: number): DraftStep[] {
  const usable: { indicator: StixObject; value: PatternValue }[] = [];
  for (const indicator of indicators) {
    const pattern = text(indicator.pattern);
    const values = indicator.pattern_type === 'stix' && pattern ? patternValues(pattern) : [];
    if (values.length === 0) {
      bundle.notMapped.push(
        `Indicator "${bundle.name(indicator)}": its pattern (${String(indicator.pattern_type ?? 'unknown')}) compares no IP address, domain, URL, email address or file hash, so it became no question.`,
      );
      continue;
    }
    for (const value of values) usable.push({ indicator, value });
  }
  const steps: DraftStep[] = [];
  for (let start = 0; start < usable.length; start += MAX_FIELDS_PER_STEP) {
    const group = usable.slice(start, start + MAX_FIELDS_PER_STEP);
    if (steps.length === MAX_INDICATOR_STEPS) {
      bundle.notMapped.push(
        `${usable.length - start} indicator value(s) after the first ${start}: the draft asks for at most ${start}; the rest stay in the feed artifacts.`,
      );
      break;
    }
    const number = firstNumber + steps.length;
    const feed: DraftArtifact = {
      kind: 'feed',
      title: `Indicator feed, part ${steps.length + 1}`,
      content: clip(
        group
          .map(({ indicator }) =>
            [text(indicator.name), text(indicator.description), text(indicator.pattern)].filter(Boolean).join('\n'),
          )
          .filter((entry, index, all) => all.indexOf(entry) === index)
          .join('\n\n'),
        8000,
      ),
      indicators: group.map(({ value, indicator }) => {
        const context = text(indicator.description);
        return { type: value.type, value: value.value, ...(context ? { context: clip(context, 300) } : {}) };
      }),
    };
    const tlp = bundle.tlp(group[0]!.indicator);
    if (tlp) feed.tlp = tlp;
    steps.push({
      kind: 'extract',
      id: `indicators-${number}`,
      title: 'Pull the indicators for the blocklist',
      description:
        'The feed below came with the report. Copy out each value the detection team asked for, exactly as ' +
        'it should go into the blocklist.',
      artifacts: [feed],
      fields: group.map(({ value }, index) => ({
        label: `${value.label} ${index + 1}`,
        type: value.type,
        accept: [value.value],
      })),
    });
  }
  return steps;
}

// --- reports ---------------------------------------------------------------------------------------------

function phaseRank(object: StixObject, technique: AttackTechnique | undefined): number {
  const phases = Array.isArray(object.kill_chain_phases)
    ? (object.kill_chain_phases as { phase_name?: string }[]).map((phase) => phase.phase_name ?? '')
    : [];
  const names = phases.length > 0 ? phases : (technique?.tactics ?? []);
  const ranks = names.map((name) => PHASE_ORDER.indexOf(name)).filter((rank) => rank >= 0);
  return ranks.length > 0 ? Math.min(...ranks) : PHASE_ORDER.length;
}

function techniqueStep(id: string, title: string, situation: string, technique: AttackTechnique): DraftStep {
  return {
    kind: 'extract',
    id,
    title: clip(title, 160),
    description: clip(`${situation}\n\nWhich ATT&CK technique is this? Give its id.`, 2000),
    mitre_attack: technique.id,
    skill: 'analysis',
    fields: [{ label: 'ATT&CK technique id', type: 'technique', accept: [technique.id] }],
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

function fromReport(bundle: Bundle): StixImport {
  const subject = TITLE_TYPES.map((type) => bundle.ofType(type)[0]).find(Boolean);
  const patterns = bundle
    .ofType('attack-pattern')
    .map((pattern, index) => ({ pattern, index, technique: techniqueOf(pattern) }));
  for (const { pattern, technique } of patterns) {
    if (!technique) {
      bundle.notMapped.push(
        `Attack pattern "${bundle.name(pattern)}": it names no ATT&CK technique (an external reference from "mitre-attack"), so it became no step.`,
      );
    }
  }
  const mapped = patterns
    .filter((entry): entry is typeof entry & { technique: AttackTechnique } => Boolean(entry.technique))
    .sort((a, b) => phaseRank(a.pattern, a.technique) - phaseRank(b.pattern, b.technique) || a.index - b.index);

  const steps: DraftStep[] = mapped.map(({ pattern, technique }, index) =>
    techniqueStep(
      `technique-${index + 1}`,
      `Map behaviour ${index + 1} of ${mapped.length}`,
      text(pattern.description) ?? `The report describes this behaviour: ${bundle.name(pattern)}.`,
      technique,
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
        bundle.notMapped.push(
          `${heading} "${bundle.name(object)}": a step shows at most ${MAX_ARTIFACTS_PER_STEP} artifacts.`,
        );
      }
    }
  }
  steps[0] = { ...steps[0]!, artifacts: [...caseFile, ...(steps[0]!.artifacts ?? [])] };

  const name = subject ? bundle.name(subject) : 'Imported threat report';
  const techniqueIds = mapped.map(({ technique }) => technique.id);
  steps.push(
    summaryStep(
      name,
      techniqueIds,
      `TLP:CLEAR. ${text(subject?.description) ?? name} Techniques: ${
        mapped.map(({ technique }) => `${technique.id} ${technique.name}`).join('; ') || 'none mapped'
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
  // operator is played one after another before the step it leads to.
  const order: string[] = [];
  const visited = new Set<string>();
  const visit = (id: string): void => {
    if (visited.has(id)) return;
    visited.add(id);
    const object = bundle.byId.get(id);
    if (!object) return;
    for (const next of [...successors(object)].reverse()) visit(next);
    order.push(id);
  };
  const starts = refs(flow, 'start_refs').filter((id) => bundle.byId.has(id));
  const roots =
    starts.length > 0 ? starts : actions.filter((action) => !parents.has(action.id)).map((action) => action.id);
  for (const root of [...roots].reverse()) visit(root);
  for (const action of actions) visit(action.id);
  order.reverse();

  /** Where a step goes after `id`: the step an operator or a pass-through condition leads to, or file order. */
  const target = (id: string, seen = new Set<string>()): string | undefined => {
    if (seen.has(id)) return undefined;
    seen.add(id);
    const object = bundle.byId.get(id);
    if (!object) return undefined;
    if (stepIdOf.has(id)) return id;
    if (object.type === 'attack-operator') {
      // AND: every branch must happen, so the branches are played in file order and meet at the join.
      if (object.operator === 'AND') return undefined;
      const [first] = refs(object, 'effect_refs');
      return first ? target(first, seen) : undefined;
    }
    if (object.type === 'attack-condition') {
      const [first] = refs(object, 'on_true_refs');
      return first ? target(first, seen) : undefined;
    }
    return undefined;
  };

  const flowSteps: { objectId: string; step: DraftStep }[] = [];
  const techniques: AttackTechnique[] = [];
  let branchLeaves = new Set<string>();
  for (const id of order) {
    const object = bundle.byId.get(id)!;
    const stepId = stepIdOf.get(id);
    if (!stepId) continue;
    if (object.type === 'attack-action') {
      const technique = techniqueOf(object);
      const situation = text(object.description) ?? bundle.name(object);
      const artifacts = refs(object, 'asset_refs')
        .map((ref) => bundle.byId.get(ref))
        .filter((asset): asset is StixObject => Boolean(asset))
        .concat(
          bundle
            .ofType('relationship')
            .filter((relation) => relation.target_ref === id)
            .map((relation) => bundle.byId.get(String(relation.source_ref)))
            .filter((related): related is StixObject => Boolean(related) && !ATTACK_FLOW_TYPES.has(related!.type)),
        )
        .slice(0, MAX_ARTIFACTS_PER_STEP)
        .map((object) => bundle.artifactOf(object, 'other', object.type === 'attack-asset' ? 'Asset' : 'Related'));
      let step: DraftStep;
      if (technique) {
        techniques.push(technique);
        step = techniqueStep(stepId, clip(situation.split(/(?<=\.)\s/)[0]!, 160), situation, technique);
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
      branchLeaves = new Set([...branchLeaves, ...[whenTrue, whenFalse].filter((ref): ref is string => Boolean(ref))]);
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
  const reachableFromBranch = new Set<string>();
  const walk = (stepId: string | undefined) => {
    if (!stepId || reachableFromBranch.has(stepId)) return;
    reachableFromBranch.add(stepId);
    const step = flowSteps.find((entry) => entry.step.id === stepId)?.step as { next_step?: string } | undefined;
    walk(step?.next_step);
  };
  for (const leaf of branchLeaves) walk(stepIdOf.get(leaf));
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
  }
  const description = text(subject?.description) ?? `Imported from a STIX 2.1 bundle: ${name}.`;
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
  const handled = new Set([
    'attack-pattern',
    'indicator',
    'malware',
    'tool',
    'infrastructure',
    'vulnerability',
    'relationship',
    'marking-definition',
    'identity',
    'extension-definition',
    ...TITLE_TYPES,
    ...ATTACK_FLOW_TYPES,
  ]);
  const ignored = new Map<string, number>();
  for (const object of bundle.objects)
    if (!handled.has(object.type)) ignored.set(object.type, (ignored.get(object.type) ?? 0) + 1);
  for (const [type, count] of ignored)
    bundle.notMapped.push(`${count} ${type} object(s): the scenario format has no place for them.`);
  return {
    scenario,
    summary: {
      source,
      steps: steps.length,
      artifacts: steps.reduce((sum, step) => sum + (step.artifacts?.length ?? 0), 0),
      techniques,
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

/** A draft scenario and what the import did, from a bundle that passed validateStixBundle. */
export function scenarioFromStix(stixBundle: StixBundle): StixImport {
  const bundle = new Bundle(stixBundle.objects);
  return bundle.ofType('attack-action').length > 0 ? fromAttackFlow(bundle) : fromReport(bundle);
}
