// A scenario's intelligence as a STIX 2.1 bundle (docs/interoperability.md): the scenario as a report by this
// Tradecraft instance, its ATT&CK techniques as attack patterns, its artifacts' indicators as indicators that
// indicate their step's technique, and the TLP 2.0 markings of the artifacts they came from. Ids are UUIDv5 of
// the scenario and the object, so exporting the same version twice gives the same bundle.
import { createHash } from 'node:crypto';
import { findTechnique, techniqueRef } from '@tradecraft/shared/attack';
import { refang, type ScenarioDefinition, type TlpLabel } from '@tradecraft/shared';
import type { StixBundle, StixObject } from './stix-validation.js';

// TLP 2.0 marking definitions as FIRST publishes them for STIX 2.1 (the TLP 2.0 extension).
const TLP_EXTENSION_ID = 'extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d';
const TLP_MARKINGS: Record<TlpLabel, { id: string; value: string }> = {
  CLEAR: { id: 'marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487', value: 'clear' },
  GREEN: { id: 'marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb', value: 'green' },
  AMBER: { id: 'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421', value: 'amber' },
  'AMBER+STRICT': { id: 'marking-definition--939a9414-2ddd-4d32-a0cd-375ea402b003', value: 'amber+strict' },
  RED: { id: 'marking-definition--e828b379-4e03-4974-9ac4-e53a884c97c1', value: 'red' },
};
const TLP_STRICTNESS: TlpLabel[] = ['CLEAR', 'GREEN', 'AMBER', 'AMBER+STRICT', 'RED'];

// The namespace of Tradecraft's UUIDv5 ids (itself a random UUID, fixed once).
const NAMESPACE = 'b9f3c1e2-5d4a-4f6b-9a8c-2e7d1f0a3c5b';

function uuidV5(name: string): string {
  const namespace = Buffer.from(NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(namespace).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const HASH_NAMES: Record<number, string> = { 32: 'MD5', 40: 'SHA-1', 64: 'SHA-256', 128: 'SHA-512' };

/**
 * The STIX pattern of an artifact's indicator, when its type is one STIX can express. The value is refanged
 * first (`rota-share[.]example` is written `rota-share.example`): a platform matches patterns against real
 * observables, so a defanged value would match nothing.
 */
export function indicatorPattern(type: string, rawValue: string): string | undefined {
  const value = refang(rawValue.trim());
  const quoted = value.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  const kind = type.trim().toLowerCase();
  if (['ip', 'ipv4', 'ip-address'].includes(kind)) {
    return value.includes(':') ? `[ipv6-addr:value = '${quoted}']` : `[ipv4-addr:value = '${quoted}']`;
  }
  if (kind === 'ipv6') return `[ipv6-addr:value = '${quoted}']`;
  if (['domain', 'hostname', 'domain-name'].includes(kind)) return `[domain-name:value = '${quoted}']`;
  if (kind === 'url') return `[url:value = '${quoted}']`;
  if (['email', 'email-addr', 'sender'].includes(kind)) return `[email-addr:value = '${quoted}']`;
  const hashName =
    { md5: 'MD5', sha1: 'SHA-1', 'sha-1': 'SHA-1', sha256: 'SHA-256', 'sha-256': 'SHA-256', sha512: 'SHA-512' }[kind] ??
    (kind === 'hash' && /^[0-9a-f]+$/i.test(value) ? HASH_NAMES[value.length] : undefined);
  if (hashName) return `[file:hashes.'${hashName}' = '${quoted}']`;
  return undefined;
}

/** A source's short name, as STIX's `source_name` wants: the site it is published on (`cisa.gov`). */
function sourceName(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '') || url;
  } catch {
    return url;
  }
}

export interface StixExportOptions {
  /** The scenario's public address (`<PUBLIC_ORIGIN>/scenarios/<id>`), cited by the report. */
  scenarioUrl: string;
  /** When the exported version was published: every object's created and modified time. */
  published: Date;
}

/** The bundle of one scenario version's intelligence. */
export function stixBundleOf(
  scenarioId: string,
  definition: ScenarioDefinition,
  options: StixExportOptions,
): StixBundle {
  const stamp = options.published.toISOString();
  const idOf = (type: string, name: string) => `${type}--${uuidV5(`${scenarioId}/${type}/${name}`)}`;
  const common = { spec_version: '2.1', created: stamp, modified: stamp };
  const identity: StixObject = {
    type: 'identity',
    id: `identity--${uuidV5('tradecraft')}`,
    ...common,
    name: 'Tradecraft',
    identity_class: 'system',
    description: 'A training range for cyber threat intelligence analysts.',
  };
  const used = new Set<TlpLabel>();
  const markingRefs = (tlp: TlpLabel | undefined) => {
    if (!tlp) return {};
    used.add(tlp);
    return { object_marking_refs: [TLP_MARKINGS[tlp].id] };
  };

  const patterns = new Map<string, StixObject>();
  const indicators: StixObject[] = [];
  const relationships: StixObject[] = [];
  for (const step of definition.steps) {
    const technique = step.mitre_attack ? findTechnique(step.mitre_attack) : undefined;
    if (technique && !patterns.has(technique.id)) {
      patterns.set(technique.id, {
        type: 'attack-pattern',
        id: idOf('attack-pattern', technique.id),
        ...common,
        created_by_ref: identity.id,
        name: techniqueRef(technique.id).name,
        external_references: [{ source_name: 'mitre-attack', external_id: technique.id, url: technique.url }],
        kill_chain_phases: technique.tactics.map((phase) => ({ kill_chain_name: 'mitre-attack', phase_name: phase })),
      });
    }
    for (const artifact of step.artifacts ?? []) {
      for (const indicator of artifact.indicators ?? []) {
        const pattern = indicatorPattern(indicator.type, indicator.value);
        if (!pattern) continue;
        const id = idOf('indicator', `${indicator.type}:${indicator.value}`);
        if (indicators.some((existing) => existing.id === id)) continue;
        indicators.push({
          type: 'indicator',
          id,
          ...common,
          created_by_ref: identity.id,
          name: `${indicator.type}: ${indicator.value}`,
          ...(indicator.context ? { description: indicator.context } : {}),
          indicator_types: ['malicious-activity'],
          pattern,
          pattern_type: 'stix',
          valid_from: stamp,
          ...markingRefs(artifact.tlp),
        });
        if (technique) {
          relationships.push({
            type: 'relationship',
            id: idOf('relationship', `${id}/indicates/${technique.id}`),
            ...common,
            created_by_ref: identity.id,
            relationship_type: 'indicates',
            source_ref: id,
            target_ref: patterns.get(technique.id)!.id,
            ...markingRefs(artifact.tlp),
          });
        }
      }
    }
  }
  for (const step of definition.steps)
    for (const artifact of step.artifacts ?? []) if (artifact.tlp) used.add(artifact.tlp);
  const strictest = TLP_STRICTNESS.filter((label) => used.has(label)).at(-1);

  const content = [...patterns.values(), ...indicators, ...relationships];
  const report: StixObject = {
    type: 'report',
    id: idOf('report', 'report'),
    ...common,
    created_by_ref: identity.id,
    name: definition.name,
    description: definition.description,
    report_types: ['threat-report'],
    published: stamp,
    object_refs: content.length > 0 ? content.map((object) => object.id) : [identity.id],
    external_references: [
      { source_name: 'tradecraft', external_id: scenarioId, url: options.scenarioUrl },
      ...(definition.sources ?? []).map((source) => ({
        source_name: sourceName(source.url),
        description: source.title,
        url: source.url,
      })),
    ],
    ...markingRefs(strictest),
  };
  const markings: StixObject[] = TLP_STRICTNESS.filter((label) => used.has(label)).map((label) => ({
    type: 'marking-definition',
    spec_version: '2.1',
    id: TLP_MARKINGS[label].id,
    created: '2022-10-01T00:00:00.000Z',
    name: `TLP:${label}`,
    extensions: { [TLP_EXTENSION_ID]: { extension_type: 'property-extension', tlp_2_0: TLP_MARKINGS[label].value } },
  }));
  return {
    type: 'bundle',
    id: `bundle--${uuidV5(`${scenarioId}/bundle/${stamp}`)}`,
    objects: [identity, ...markings, report, ...content],
  };
}
