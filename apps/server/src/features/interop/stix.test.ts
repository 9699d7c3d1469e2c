import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bestPath, checkScenario, checkScenarioText, type ScenarioDefinition } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../paths.js';
import { indicatorPattern, stixBundleOf } from './stix-export.js';
import { patternValues, scenarioFromStix, StixImportError } from './stix-import.js';
import { validateStixBundle, type StixBundle, type StixObject } from './stix-validation.js';

const fixture = (name: string): StixBundle =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')) as StixBundle;

function imported(bundle: StixBundle) {
  const validation = validateStixBundle(bundle);
  if (!validation.ok) throw new Error(validation.problems.join('\n'));
  const result = scenarioFromStix(validation.bundle);
  const check = checkScenario(result.scenario);
  if (!check.ok) throw new Error(JSON.stringify(check.problems));
  return { ...result, definition: check.scenario };
}

const EXTENSION = { 'extension-definition--fb9c968a-745b-4ade-9b25-c324172197f4': { extension_type: 'new-sdo' } };
const stamp = { spec_version: '2.1', created: '2024-01-01T00:00:00.000Z', modified: '2024-01-01T00:00:00.000Z' };

function flowObject(type: string, id: string, properties: Record<string, unknown>): StixObject {
  return { type, id: `${type}--${id}`, ...stamp, extensions: EXTENSION, ...properties };
}

describe('validating STIX bundles', () => {
  it.each(['poisonivy.json', 'indicators-for-C2-with-COA.json', 'attack-flow-example.json'])(
    'accepts the published example %s',
    (name) => {
      expect(validateStixBundle(fixture(name))).toMatchObject({ ok: true });
    },
  );

  it('names the object and the property of each problem', () => {
    const bundle = fixture('indicators-for-C2-with-COA.json');
    const indicator = bundle.objects.find((object) => object.type === 'indicator')!;
    delete indicator.pattern;
    const result = validateStixBundle(bundle);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([
      expect.stringContaining(`${indicator.id}): (object): missing "pattern"`),
    ]);
  });

  it('refuses a JSON value that is not a bundle, saying what a bundle is', () => {
    const result = validateStixBundle({ type: 'report', objects: [] });
    expect(!result.ok && result.problems[0]).toMatch(/not a STIX 2.1 bundle.*"type": "bundle"/);
  });

  it('refuses an Attack Flow object without the extension it belongs to', () => {
    const bundle = fixture('attack-flow-example.json');
    const action = bundle.objects.find((object) => object.type === 'attack-action')!;
    delete action.extensions;
    expect(validateStixBundle(bundle)).toMatchObject({ ok: false });
  });
});

describe('importing a threat report', () => {
  it('makes a draft that passes the checker, with the report as its case file', () => {
    const { definition, summary } = imported(fixture('poisonivy.json'));
    expect(definition.name).toBe('Poison Ivy: Assessing Damage and Extracting Intelligence');
    const caseFile = definition.steps[0]!.artifacts![0]!;
    expect(caseFile).toMatchObject({ kind: 'report', source: 'FireEye, Inc.', date: '2013-08-21' });
    expect(summary.source).toBe('report');
  });

  it('lists attack patterns without an ATT&CK id as not mapped instead of inventing a technique', () => {
    const { summary, definition } = imported(fixture('poisonivy.json'));
    expect(summary.notMapped).toContain(
      'Attack pattern "Spear Phishing Attack Pattern used by menuPass": it names no ATT&CK technique (an external reference from "mitre-attack"), so it became no step.',
    );
    expect(definition.steps.some((step) => step.mitre_attack)).toBe(false);
  });

  it('asks for indicator values as extract fields keyed from the patterns', () => {
    const { definition } = imported(fixture('indicators-for-C2-with-COA.json'));
    const step = definition.steps.find((candidate) => candidate.kind === 'extract')!;
    expect(step.kind === 'extract' && step.fields).toEqual([
      { label: 'IP address 1', type: 'ip', accept: ['10.0.0.0'] },
      {
        label: 'SHA-256 hash 2',
        type: 'hash',
        accept: ['ef537f25c895bfa782526529a9b63d97aa631564d5d789c2b765448c8635fb6c'],
      },
    ]);
  });

  it('orders attack patterns by kill chain phase and keys each with its technique', () => {
    const pattern = (id: string, technique: string, phase: string): StixObject => ({
      type: 'attack-pattern',
      id: `attack-pattern--${id}`,
      ...stamp,
      name: `Pattern ${technique}`,
      description: `Behaviour seen in the intrusion (${phase}).`,
      external_references: [{ source_name: 'mitre-attack', external_id: technique }],
      kill_chain_phases: [{ kill_chain_name: 'mitre-attack', phase_name: phase }],
    });
    const bundle: StixBundle = {
      type: 'bundle',
      id: 'bundle--5d0092c5-5f74-4287-9642-33f4c354e56d',
      objects: [
        pattern('11111111-1111-4111-8111-111111111111', 'T1041', 'exfiltration'),
        pattern('22222222-2222-4222-8222-222222222222', 'T1566.001', 'initial-access'),
        pattern('33333333-3333-4333-8333-333333333333', 'T1059.001', 'execution'),
      ],
    };
    const { definition } = imported(bundle);
    expect(definition.steps.map((step) => step.mitre_attack)).toEqual(['T1566.001', 'T1059.001', 'T1041', undefined]);
    expect(definition.steps.at(-1)).toMatchObject({
      kind: 'write',
      checks: { must_mention: ['T1566.001', 'T1059.001', 'T1041'] },
    });
  });

  it('carries TLP markings over to the artifacts', () => {
    const bundle = fixture('indicators-for-C2-with-COA.json');
    for (const object of bundle.objects) {
      if (object.type === 'indicator')
        object.object_marking_refs = ['marking-definition--f88d31f6-486f-44da-b317-01333bde0b82'];
    }
    const { definition } = imported(bundle);
    const feed = definition.steps[0]!.artifacts!.find((artifact) => artifact.kind === 'feed');
    expect(feed?.tlp).toBe('AMBER');
  });

  it('refuses a bundle with nothing to make steps from', () => {
    const bundle: StixBundle = {
      type: 'bundle',
      id: 'bundle--5d0092c5-5f74-4287-9642-33f4c354e56d',
      objects: [{ type: 'identity', id: 'identity--81cade27-7df8-4730-836b-62d880e6d9d3', ...stamp, name: 'Someone' }],
    };
    expect(() => scenarioFromStix(bundle)).toThrow(StixImportError);
  });

  it('reads equality comparisons of the observable types an analyst extracts', () => {
    expect(
      patternValues("[domain-name:value = 'evil.example'] OR [file:hashes.MD5 = 'd41d8cd98f00b204e9800998ecf8427e']"),
    ).toEqual([
      { type: 'domain', label: 'Domain', value: 'evil.example' },
      { type: 'hash', label: 'MD5 hash', value: 'd41d8cd98f00b204e9800998ecf8427e' },
    ]);
  });
});

describe('importing an Attack Flow', () => {
  it('makes one step per action with its technique, AND branches played one after another', () => {
    const { definition, summary } = imported(fixture('attack-flow-example.json'));
    expect(summary.source).toBe('attack-flow');
    // The example writes "1598.003" for T1598.003.
    expect(definition.steps.map((step) => step.mitre_attack)).toEqual([
      'T1583.002',
      'T1583.003',
      'T1589.002',
      'T1598.003',
      'T1190',
      undefined,
    ]);
    expect(bestPath(definition.steps).stepIds).toEqual([
      'action-1',
      'action-2',
      'action-3',
      'action-4',
      'action-5',
      'summary',
    ]);
    expect(summary.notMapped).toContainEqual(expect.stringMatching(/^Operator AND .*played one after another/));
  });

  it('turns a condition with a false branch into a decision leading to each branch', () => {
    const bundle: StixBundle = {
      type: 'bundle',
      id: 'bundle--5d0092c5-5f74-4287-9642-33f4c354e56d',
      objects: [
        flowObject('attack-flow', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', {
          name: 'Branching flow',
          scope: 'incident',
          start_refs: ['attack-action--11111111-1111-4111-8111-111111111111'],
        }),
        flowObject('attack-action', '11111111-1111-4111-8111-111111111111', {
          name: 'Phishing',
          technique_id: 'T1566',
          description: 'A phishing email reaches the finance team.',
          effect_refs: ['attack-condition--44444444-4444-4444-8444-444444444444'],
        }),
        flowObject('attack-condition', '44444444-4444-4444-8444-444444444444', {
          description: 'A user opens the attachment.',
          on_true_refs: ['attack-action--22222222-2222-4222-8222-222222222222'],
          on_false_refs: ['attack-action--33333333-3333-4333-8333-333333333333'],
        }),
        flowObject('attack-action', '22222222-2222-4222-8222-222222222222', {
          name: 'User Execution',
          technique_id: 'T1204.002',
          description: 'The macro runs.',
        }),
        flowObject('attack-action', '33333333-3333-4333-8333-333333333333', {
          name: 'Valid Accounts',
          technique_id: 'T1078',
          description: 'The actor tries stolen credentials instead.',
        }),
      ],
    };
    const { definition } = imported(bundle);
    const decision = definition.steps.find((step) => step.kind === 'choice')!;
    expect(decision.kind === 'choice' && decision.options.map((option) => option.next_step)).toEqual([
      'action-2',
      'action-3',
    ]);
    // Each branch ends at the summary rather than running on into the other branch.
    for (const id of ['action-2', 'action-3']) {
      expect(definition.steps.find((step) => step.id === id)).toMatchObject({ next_step: 'summary' });
    }
  });
});

describe('exporting a scenario as STIX', () => {
  const options = {
    scenarioUrl: 'https://tradecraft.example/scenarios/x',
    published: new Date('2026-11-01T00:00:00Z'),
  };

  it('gives a bundle that validates for every built-in scenario', () => {
    const folder = join(PROJECT_ROOT, 'content', 'scenarios');
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.yaml'))) {
      const check = checkScenarioText(readFileSync(join(folder, file), 'utf8'), { origin: 'builtin' });
      if (!check.ok) throw new Error(`${file} fails the checker`);
      const result = validateStixBundle(stixBundleOf(check.scenario.id!, check.scenario, options));
      expect(result, file).toMatchObject({ ok: true });
    }
  });

  it('exports indicators that indicate their step technique, marked with the artifact TLP', () => {
    const definition = imported(fixture('indicators-for-C2-with-COA.json')).definition as ScenarioDefinition;
    const step = definition.steps[0]!;
    step.mitre_attack = 'T1071.001';
    step.artifacts = step.artifacts!.map((artifact) => ({ ...artifact, tlp: 'AMBER+STRICT' as const }));
    const bundle = stixBundleOf('c2-feed', definition, options);
    expect(validateStixBundle(bundle)).toMatchObject({ ok: true });
    const indicators = bundle.objects.filter((object) => object.type === 'indicator');
    expect(indicators.map((indicator) => indicator.pattern)).toEqual([
      "[ipv4-addr:value = '10.0.0.0']",
      "[file:hashes.'SHA-256' = 'ef537f25c895bfa782526529a9b63d97aa631564d5d789c2b765448c8635fb6c']",
    ]);
    const pattern = bundle.objects.find((object) => object.type === 'attack-pattern')!;
    const relations = bundle.objects.filter((object) => object.type === 'relationship');
    expect(relations.map((relation) => [relation.relationship_type, relation.target_ref])).toEqual([
      ['indicates', pattern.id],
      ['indicates', pattern.id],
    ]);
    expect(indicators[0]!.object_marking_refs).toEqual(['marking-definition--939a9414-2ddd-4d32-a0cd-375ea402b003']);
    expect(bundle.objects.find((object) => object.type === 'report')!.object_marking_refs).toEqual([
      'marking-definition--939a9414-2ddd-4d32-a0cd-375ea402b003',
    ]);
  });

  it('gives the same ids for the same version twice', () => {
    const definition = imported(fixture('attack-flow-example.json')).definition;
    const ids = (bundle: StixBundle) => bundle.objects.map((object) => object.id);
    expect(ids(stixBundleOf('flow', definition, options))).toEqual(ids(stixBundleOf('flow', definition, options)));
  });

  it('quotes values so a pattern cannot be broken out of', () => {
    expect(indicatorPattern('domain', "evil.example'] OR [x:y = '1")).toBe(
      "[domain-name:value = 'evil.example\\'] OR [x:y = \\'1']",
    );
    expect(indicatorPattern('registry-key', 'HKLM\\Run')).toBeUndefined();
  });
});
