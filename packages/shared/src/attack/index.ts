import capecData from './capec-techniques.json' with { type: 'json' };
import data from './enterprise-attack-compact.json' with { type: 'json' };

export interface AttackTactic {
  id: string;
  shortname: string;
  name: string;
}

export interface AttackTechnique {
  id: string;
  name: string;
  tactics: string[];
  subtechnique_of: string | null;
  url: string;
}

export const ATTACK_VERSION: string = data.attack_version;

/** MITRE's required notice, shown wherever ATT&CK data is shown. */
export const ATTACK_NOTICE =
  '© 2025 The MITRE Corporation. This work is reproduced and distributed with the permission of The MITRE Corporation.';

/** The 14 Enterprise tactics in matrix order. */
export const tactics: readonly AttackTactic[] = data.tactics;

export const techniques: readonly AttackTechnique[] = data.techniques;

const byId = new Map(techniques.map((technique) => [technique.id, technique]));

/** The active technique or sub-technique with this id (`T1566` or `T1566.001`), if any. */
export function findTechnique(id: string): AttackTechnique | undefined {
  return byId.get(id.trim().toUpperCase());
}

/** A technique as the API names it: `{ id, name }`, the name prefixed by its parent's for a sub-technique. */
export interface TechniqueNameRef {
  id: string;
  name: string;
}

/** "Phishing: Spearphishing Attachment" for T1566.001; the id itself as the name when the dataset does not know it. */
export function techniqueRef(id: string): TechniqueNameRef {
  const technique = findTechnique(id);
  if (!technique) return { id, name: id };
  const parent = technique.subtechnique_of ? findTechnique(technique.subtechnique_of) : undefined;
  return { id: technique.id, name: parent ? `${parent.name}: ${technique.name}` : technique.name };
}

/** The id a step's or decision's technique is counted under (the dataset's spelling); null when there is none. */
export function techniqueKey(id: string | null | undefined): string | null {
  const trimmed = id?.trim();
  if (!trimmed) return null;
  return findTechnique(trimmed)?.id ?? trimmed.toUpperCase();
}

/** "T1566.001 Phishing: Spearphishing Attachment", or the id alone when it is not in the dataset. */
export function techniqueLabel(id: string): string {
  if (!findTechnique(id)) return id;
  const ref = techniqueRef(id);
  return `${ref.id} ${ref.name}`;
}

const capecTechniques: Readonly<Record<string, readonly string[]>> = capecData.capec;

/**
 * The active techniques whose ATT&CK entries name a CAPEC id (`CAPEC-163` gives T1566.001, T1566.002 and
 * T1566.003), from capec-techniques.json (packages/shared/scripts/generate-capec-techniques.mjs); none for an id
 * ATT&CK does not name.
 */
export function techniquesForCapec(capecId: string): AttackTechnique[] {
  const ids = capecTechniques[capecId.trim().toUpperCase()] ?? [];
  return ids.map((id) => findTechnique(id)).filter((technique): technique is AttackTechnique => Boolean(technique));
}
