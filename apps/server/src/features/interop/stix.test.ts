import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bestPath, checkScenario, checkScenarioText, type ScenarioDefinition } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import { comparisonsOf, parseStixPattern } from '../../../../../test-support/stix-pattern.js';
import { PROJECT_ROOT } from '../../paths.js';
import { indicatorPattern, stixBundleOf } from './stix-export.js';
import { patternValues, scenarioFromStix, StixImportError } from './stix-import.js';
import { validateStixBundle, type StixBundle, type StixObject } from './stix-validation.js';

const fixture = (name: string): StixBundle =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')) as StixBundle;

function imported(bundle: StixBundle) {
  const validation = validateStixBundle(bundle);
  if (!validation.ok) throw new Error(validation.problems.join('\n'));
  const result = scenarioFromStix(validation.bundle, validation.warnings);
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

  it('maps attack patterns that name only CAPEC-163 to the ATT&CK techniques whose entries name it, asked once', () => {
    const { summary, definition } = imported(fixture('poisonivy.json'));
    const asked = definition.steps.filter((step) => step.mitre_attack);
    expect(asked.map((step) => step.mitre_attack)).toEqual(['T1566']);
    expect(asked[0]!.kind === 'extract' && asked[0]!.fields[0]!.accept).toEqual([
      'T1566',
      'T1566.001',
      'T1566.002',
      'T1566.003',
    ]);
    expect(summary.notMapped).toContain(
      'Attack pattern "Spear Phishing Attack Pattern used by menuPass": the step for "Spear Phishing Attack Pattern used by admin@338" already asks for T1566, so it is not asked twice.',
    );
    // A pattern naming neither an ATT&CK id nor a CAPEC id still becomes no step.
    expect(summary.notMapped).toContainEqual(
      expect.stringMatching(
        /^Attack pattern "Strategic Web Compromise Attack Pattern used by th3bug": it names no ATT&CK technique/,
      ),
    );
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
    const hostile = "evil.example'] OR [x:y = '1";
    const pattern = indicatorPattern('domain', hostile)!;
    expect(pattern).toBe("[domain-name:value = 'evil.example\\'] OR [x:y = \\'1']");
    // The grammar reads one comparison whose value is the whole hostile text.
    expect(comparisonsOf(parseStixPattern(pattern)).map((test) => test.value)).toEqual([
      { type: 'string', value: hostile },
    ]);
    expect(indicatorPattern('registry-key', 'HKLM\\Run')).toBeUndefined();
  });

  it('writes defanged values refanged, as a platform matches them', () => {
    expect(indicatorPattern('domain', 'rota-share[.]example')).toBe("[domain-name:value = 'rota-share.example']");
    expect(indicatorPattern('url', 'hxxps://rota-share[.]example/login')).toBe(
      "[url:value = 'https://rota-share.example/login']",
    );
    expect(indicatorPattern('ip', '198.51.100[.]7')).toBe("[ipv4-addr:value = '198.51.100.7']");
    expect(indicatorPattern('email', 'billing[@]rota-share[.]example')).toBe(
      "[email-addr:value = 'billing@rota-share.example']",
    );
  });

  it('writes patterns every built-in scenario exports in the STIX 2.1 pattern grammar, with refanged values', () => {
    const folder = join(PROJECT_ROOT, 'content', 'scenarios');
    const patterns: string[] = [];
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.yaml'))) {
      const check = checkScenarioText(readFileSync(join(folder, file), 'utf8'), { origin: 'builtin' });
      if (!check.ok) throw new Error(`${file} fails the checker`);
      const bundle = stixBundleOf(check.scenario.id!, check.scenario, options);
      for (const object of bundle.objects.filter((candidate) => candidate.type === 'indicator')) {
        patterns.push(String(object.pattern));
        const tests = comparisonsOf(parseStixPattern(String(object.pattern)));
        expect(tests.length, `${file}: ${String(object.pattern)}`).toBeGreaterThan(0);
        for (const test of tests) {
          expect(String((test.value as { value: unknown }).value), file).not.toMatch(/\[\.\]|\(\.\)|hxxp|\[@\]|\[:\]/i);
        }
      }
    }
    // The library writes rota-share[.]example defanged; the export writes what a platform can match.
    expect(patterns).toContain("[domain-name:value = 'rota-share.example']");
  });

  it("names each source by its site's short name, keeping the title as the description", () => {
    const definition = imported(fixture('attack-flow-example.json')).definition;
    definition.sources = [
      { title: 'CISA advisory AA24-038A on PRC actors', url: 'https://www.cisa.gov/news/aa24-038a' },
    ];
    const report = stixBundleOf('flow', definition, options).objects.find((object) => object.type === 'report')!;
    expect(report.external_references).toContainEqual({
      source_name: 'cisa.gov',
      description: 'CISA advisory AA24-038A on PRC actors',
      url: 'https://www.cisa.gov/news/aa24-038a',
    });
  });
});

const TLP1 = {
  GREEN: 'marking-definition--34098fce-860f-48ae-8e50-ebd3cc5e41da',
  AMBER: 'marking-definition--f88d31f6-486f-44da-b317-01333bde0b82',
  RED: 'marking-definition--5e57c739-391a-4eb3-b6be-7d15ca92d5ed',
};
const TLP2 = {
  GREEN: 'marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb',
  AMBER: 'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421',
  RED: 'marking-definition--e828b379-4e03-4974-9ac4-e53a884c97c1',
};

function indicator(id: string, pattern: string, markings: string[] = []): StixObject {
  return {
    type: 'indicator',
    id: `indicator--${id}`,
    ...stamp,
    name: `Indicator ${id.slice(0, 4)}`,
    pattern,
    pattern_type: 'stix',
    valid_from: '2024-01-01T00:00:00Z',
    ...(markings.length > 0 ? { object_marking_refs: markings } : {}),
  };
}

const bundleOf = (objects: StixObject[]): StixBundle => ({
  type: 'bundle',
  id: 'bundle--5d0092c5-5f74-4287-9642-33f4c354e56d',
  objects,
});

describe('importing MITRE ATT&CK data as MITRE publishes it', () => {
  const sandworm = 'intrusion-set--381fcf73-60f6-4ab2-9991-6af3cbc35192';

  it('keeps the newest version of an object that appears twice, whichever comes first, and says so', () => {
    const bundle = fixture('attack-ics-sandworm-team.json');
    for (const objects of [bundle.objects, [...bundle.objects].reverse()]) {
      const validation = validateStixBundle({ ...bundle, objects });
      expect(validation.ok).toBe(true);
      if (!validation.ok) return;
      const kept = validation.bundle.objects.filter((object) => object.id === sandworm);
      expect(kept.map((object) => object.modified)).toEqual(['2024-12-04T21:17:08.593Z']);
      expect(validation.warnings[0]).toBe(
        `One object appears more than once (${sandworm}): the newest version of each (latest "modified") was kept and 1 older one left out.`,
      );
    }
  });

  it("makes a draft of one intrusion set cut from ATT&CK for ICS, asking each technique from MITRE's procedure", () => {
    const { definition, summary } = imported(fixture('attack-ics-sandworm-team.json'));
    expect(definition.name).toBe('Sandworm Team');
    const asked = definition.steps.filter((step) => step.id.startsWith('technique-'));
    expect(asked.map((step) => step.kind === 'extract' && step.fields[0]!.accept)).toEqual([
      ['T0819'],
      ['T0807'],
      ['T0884'],
    ]);
    // The procedure from the `uses` relationship, without MITRE's citation markers or Markdown links.
    expect(asked[0]!.description).toMatch(/^Sandworm Team actors exploited vulnerabilities in GE's Cimplicity HMI/);
    for (const step of definition.steps) expect(step.description).not.toMatch(/\(Citation:|\]\(https/);
    // ATT&CK's own technique pages would give the answers away: they are not listed as sources.
    expect(definition.sources!.map((source) => source.url).join(' ')).not.toContain('attack.mitre.org');
    expect(summary.kept[0]).toBe(
      '4 steps: 3 steps asking for an ICS or Mobile technique id as text, the summary step.',
    );
    expect(summary.notMapped).toContainEqual(
      expect.stringMatching(/^Attack pattern "Command-Line Interface": T0807 is an ATT&CK for ICS technique/),
    );
  });

  it('reads empty lists and reference addresses with trailing spaces, and skips types it does not read', () => {
    const bundle = fixture('attack-ics-sandworm-team.json');
    const group = bundle.objects.find(
      (object) => object.id === sandworm && object.modified === '2024-12-04T21:17:08.593Z',
    )!;
    group.aliases = [];
    const references = group.external_references as { url?: string }[];
    references[0]!.url = `${references[0]!.url} `;
    bundle.objects.push({
      type: 'x-mitre-collection',
      id: 'x-mitre-collection--90c00720-636b-4485-b342-8751d232bf09',
      ...stamp,
      x_mitre_contents: [],
    });
    const validation = validateStixBundle(bundle);
    expect(validation.ok ? validation.warnings : validation.problems).toEqual([
      expect.stringMatching(/^One object appears more than once/),
      '1 x-mitre-collection object: the import does not read this type, so skipped it unchecked.',
      '1 empty list (which STIX does not allow) read as absent.',
      '1 reference address read without their surrounding spaces.',
    ]);
  });

  it('leaves out revoked and deprecated objects', () => {
    const bundle = fixture('attack-ics-sandworm-team.json');
    const retired = bundle.objects.find((object) => object.type === 'attack-pattern')!;
    retired.revoked = true;
    const { definition, summary } = imported(bundle);
    expect(definition.steps.filter((step) => step.id.startsWith('technique-'))).toHaveLength(2);
    expect(summary.notMapped).toContainEqual(expect.stringMatching(/^1 revoked or deprecated object\(s\)/));
  });
});

describe('markings on imported artifacts', () => {
  it('never drops a marking: each feed carries the strictest TLP of what it holds, TLP 1.0 read as 2.0', () => {
    const { definition, summary } = imported(
      bundleOf([
        indicator('11111111-1111-4111-8111-111111111111', "[ipv4-addr:value = '198.51.100.7']", [TLP1.GREEN]),
        indicator('22222222-2222-4222-8222-222222222222', "[file:hashes.MD5 = 'd41d8cd98f00b204e9800998ecf8427e']", [
          TLP2.AMBER,
        ]),
        indicator('33333333-3333-4333-8333-333333333333', "[domain-name:value = 'rota-share.example']", [
          TLP2.GREEN,
          TLP1.RED,
        ]),
      ]),
    );
    const feeds = definition.steps[0]!.artifacts!.filter((artifact) => artifact.kind === 'feed');
    expect(feeds.map((feed) => [feed.tlp, feed.indicators!.map((entry) => entry.value)])).toEqual([
      ['GREEN', ['198.51.100.7']],
      ['AMBER', ['d41d8cd98f00b204e9800998ecf8427e']],
      ['RED', ['rota-share.example']],
    ]);
    expect(summary.kept).toContain(
      'TLP markings kept: 1 GREEN, 1 AMBER, 1 RED (each artifact carries the strictest marking of what it holds).',
    );
  });

  it('reads a marking definition by its TLP 2.0 extension when its id is not a published one', () => {
    const marking: StixObject = {
      type: 'marking-definition',
      id: 'marking-definition--4b9c9e53-04a1-4a3e-9a4e-2e2b8e7a1c11',
      spec_version: '2.1',
      created: '2024-01-01T00:00:00.000Z',
      name: 'Our amber',
      extensions: {
        'extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d': {
          extension_type: 'property-extension',
          tlp_2_0: 'amber+strict',
        },
      },
    };
    const { definition } = imported(
      bundleOf([
        marking,
        indicator('11111111-1111-4111-8111-111111111111', "[ipv4-addr:value = '198.51.100.7']", [marking.id]),
      ]),
    );
    expect(definition.steps[0]!.artifacts![0]!.tlp).toBe('AMBER+STRICT');
  });

  it('writes each marking back on export', () => {
    const { definition } = imported(
      bundleOf([
        indicator('11111111-1111-4111-8111-111111111111', "[ipv4-addr:value = '198.51.100.7']", [TLP1.GREEN]),
        indicator('22222222-2222-4222-8222-222222222222', "[domain-name:value = 'rota-share.example']", [TLP2.AMBER]),
      ]),
    );
    const exported = stixBundleOf('feed', definition, {
      scenarioUrl: 'https://tradecraft.example/scenarios/feed',
      published: new Date('2026-11-01T00:00:00Z'),
    });
    const marks = Object.fromEntries(
      exported.objects
        .filter((object) => object.type === 'indicator')
        .map((object) => [object.pattern, object.object_marking_refs]),
    );
    expect(marks).toEqual({
      "[ipv4-addr:value = '198.51.100.7']": [TLP2.GREEN],
      "[domain-name:value = 'rota-share.example']": [TLP2.AMBER],
    });
  });
});

describe('indicator steps', () => {
  it('asks each indicator in one step, and a value two indicators share once', () => {
    const four = (prefix: string) => [1, 2, 3, 4].map((n) => `[ipv4-addr:value = '${prefix}.${n}']`).join(' OR ');
    const { definition, summary } = imported(
      bundleOf([
        indicator('11111111-1111-4111-8111-111111111111', four('198.51.100')),
        indicator('22222222-2222-4222-8222-222222222222', four('203.0.113')),
        indicator('33333333-3333-4333-8333-333333333333', "[ipv4-addr:value = '198.51.100.1']"),
      ]),
    );
    const asked = definition.steps
      .filter((step) => step.id.startsWith('indicators-'))
      .map((step) => (step.kind === 'extract' ? step.fields.map((field) => field.accept[0]) : []));
    expect(asked).toEqual([
      ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'],
      ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'],
    ]);
    expect(summary.notMapped).toContain(
      'Indicator "Indicator 3333": every value it compares is asked with another indicator, so it is not asked again.',
    );
  });
});

describe('hostile bundles', () => {
  it('stops after 50 problems, one line for each object', () => {
    const objects = Array.from({ length: 400 }, (_, index) => ({
      type: 'indicator',
      id: `indicator--${String(index).padStart(8, '0')}-1111-4111-8111-111111111111`,
      ...stamp,
      pattern_type: 'stix',
    }));
    const result = validateStixBundle(bundleOf(objects));
    expect(result.ok ? [] : result.problems).toHaveLength(50);
    expect(!result.ok && result.problems[0]).toBe(
      'objects[0] (indicator--00000000-1111-4111-8111-111111111111): (object): missing "pattern"',
    );
  });

  it('names a property an anyOf refuses once, not once per branch', () => {
    const bad = indicator('11111111-1111-4111-8111-111111111111', "[ipv4-addr:value = '198.51.100.7']");
    bad.external_references = [{ source_name: 'x', url: 'not a url' }];
    const result = validateStixBundle(bundleOf([bad]));
    expect(result.ok ? [] : result.problems).toHaveLength(1);
  });

  it('refuses a bundle of more than 20,000 objects before checking any', () => {
    const objects = Array.from({ length: 20_001 }, () => ({ type: 'x', id: 'x' }));
    expect(validateStixBundle(bundleOf(objects as StixObject[]))).toEqual({
      ok: false,
      problems: [
        'The bundle holds 20,001 objects; an import reads at most 20,000. Cut the bundle to the report, intrusion set or flow you want to train on.',
      ],
    });
  });

  it('refuses an object of a million bad values with its first problem', () => {
    const bad = indicator('11111111-1111-4111-8111-111111111111', "[ipv4-addr:value = '198.51.100.7']");
    bad.indicator_types = Array.from({ length: 1_000_000 }, () => 7);
    const result = validateStixBundle(bundleOf([bad]));
    expect(result.ok ? [] : result.problems).toEqual([
      'objects[0] (indicator--11111111-1111-4111-8111-111111111111): /indicator_types/0 must be string',
    ]);
  });

  it('imports a chain of 10,000 Attack Flow actions without a deep walk, cut to the longest scenario', () => {
    const uuid = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;
    const actions = Array.from({ length: 10_000 }, (_, n) =>
      flowObject('attack-action', uuid(n), {
        name: `Action ${n}`,
        technique_id: 'T1059',
        ...(n < 9_999 ? { effect_refs: [`attack-action--${uuid(n + 1)}`] } : {}),
      }),
    );
    const flow = flowObject('attack-flow', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', {
      name: 'Long chain',
      scope: 'incident',
      start_refs: [`attack-action--${uuid(0)}`],
    });
    const { definition } = imported(bundleOf([flow, ...actions]));
    expect(definition.steps).toHaveLength(60);
    expect(definition.steps.slice(0, 2).map((step) => step.id)).toEqual(['action-1', 'action-2']);
  });
});
