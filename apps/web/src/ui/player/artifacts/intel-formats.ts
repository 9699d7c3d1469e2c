// Readers for the structured artifact kinds (dns, whois, stix). Each turns scenario text into plain data to draw
// as text, or says it could not, so the card falls back to the text as written.

export interface RecordTable {
  columns: string[];
  rows: string[][];
}

const cellText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

function tableFromObjects(objects: Record<string, unknown>[]): RecordTable | null {
  if (objects.length === 0) return null;
  const columns: string[] = [];
  for (const object of objects) for (const key of Object.keys(object)) if (!columns.includes(key)) columns.push(key);
  return { columns, rows: objects.map((object) => columns.map((column) => cellText(object[column]))) };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Passive DNS records: a JSON array (or JSON lines) of objects, or a header line and rows separated by tabs,
 * commas, `|` or runs of two or more spaces. Null when the text is neither (the card shows it as written).
 */
export function parseDnsRecords(content: string): RecordTable | null {
  const text = content.trim();
  if (!text) return null;
  if (text.startsWith('[') || text.startsWith('{')) {
    try {
      const parsed: unknown = text.startsWith('[')
        ? JSON.parse(text)
        : text
            .split(/\r?\n/)
            .filter((line) => line.trim())
            .map((line) => JSON.parse(line) as unknown);
      return Array.isArray(parsed) && parsed.every(isRecord) ? tableFromObjects(parsed) : null;
    } catch {
      return null;
    }
  }
  const lines = text.split(/\r?\n/).filter((line) => line.trim() && !/^[-=|+\s]+$/.test(line));
  const headerless = recordsWithoutHeader(lines);
  if (headerless) return headerless;
  const separator = [/\t/, /\s*\|\s*/, /\s*,\s*/, /\s{2,}/].find((candidate) =>
    lines.every((line) => candidate.test(line.trim())),
  );
  if (!separator || lines.length < 2) return null;
  const split = (line: string) =>
    line
      .trim()
      .replace(/^\|\s*|\s*\|$/g, '')
      .split(separator)
      .map((cell) => cell.trim());
  const columns = split(lines[0]!);
  const rows = lines.slice(1).map(split);
  if (columns.length < 2 || rows.some((row) => row.length !== columns.length)) return null;
  return { columns, rows };
}

const RECORD_TYPES = /^(A|AAAA|CNAME|MX|NS|TXT|PTR|SOA|SRV|CAA)$/i;
const HEADERLESS_COLUMNS = ['Name', 'Type', 'Data', 'First seen', 'Last seen', 'Count'];

/** Rows such as "evil[.]example.com A 192.0.2.1 2025-03-10 2025-03-11" with no header line: the usual columns. */
function recordsWithoutHeader(lines: string[]): RecordTable | null {
  const rows = lines.map((line) => line.trim().split(/\s+/));
  const width = rows[0]?.length ?? 0;
  if (
    width < 3 ||
    width > HEADERLESS_COLUMNS.length ||
    rows.some((row) => row.length !== width || !RECORD_TYPES.test(row[1]!))
  )
    return null;
  return { columns: HEADERLESS_COLUMNS.slice(0, width), rows };
}

export interface WhoisLine {
  /** The field name, or null for a line that is not "Name: value" (a remark, a separator). */
  name: string | null;
  value: string;
}

/** A WHOIS record: "Name: value" lines; other lines are kept as remarks. Empty lines and `%`/`#` comments are dropped. */
export function parseWhois(content: string): WhoisLine[] {
  return content
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((line) => line.trim() && !/^\s*[%#]/.test(line))
    .map((line) => {
      const match = /^\s*([A-Za-z][\w /.()-]{0,60}?)\s*:\s*(.*)$/.exec(line);
      return match && !/^https?$/i.test(match[1]!)
        ? { name: match[1]!, value: match[2]!.trim() }
        : { name: null, value: line.trim() };
    });
}

export interface StixField {
  name: string;
  value: string;
}

export interface StixObjectView {
  id: string;
  type: string;
  /** The object's name, or a summary of what it is (a relationship's sentence, an indicator's pattern). */
  title: string;
  fields: StixField[];
}

export interface StixView {
  /** Objects grouped by type, in the order the types first appear. */
  groups: { type: string; objects: StixObjectView[] }[];
  bundleId: string | null;
}

// The key fields per STIX 2.1 object type, in the order a reader wants them.
const KEY_FIELDS: Record<string, string[]> = {
  indicator: ['pattern', 'indicator_types', 'valid_from', 'valid_until', 'description'],
  malware: ['malware_types', 'is_family', 'aliases', 'description'],
  'threat-actor': [
    'threat_actor_types',
    'aliases',
    'roles',
    'sophistication',
    'resource_level',
    'primary_motivation',
    'description',
  ],
  'intrusion-set': ['aliases', 'first_seen', 'last_seen', 'goals', 'primary_motivation', 'description'],
  campaign: ['aliases', 'first_seen', 'last_seen', 'objective', 'description'],
  'attack-pattern': ['external_references', 'kill_chain_phases', 'description'],
  tool: ['tool_types', 'description'],
  vulnerability: ['external_references', 'description'],
  identity: ['identity_class', 'sectors', 'contact_information', 'description'],
  report: ['report_types', 'published', 'object_refs', 'description'],
  sighting: ['sighting_of_ref', 'first_seen', 'last_seen', 'count', 'where_sighted_refs'],
  'observed-data': ['first_observed', 'last_observed', 'number_observed', 'object_refs'],
  'domain-name': ['value', 'resolves_to_refs'],
  'ipv4-addr': ['value'],
  'ipv6-addr': ['value'],
  url: ['value'],
  file: ['name', 'hashes', 'size'],
  'email-addr': ['value', 'display_name'],
  note: ['content', 'object_refs'],
};
const COMMON_FIELDS = ['labels', 'confidence', 'created', 'modified'];

function fieldValue(value: unknown, names: Map<string, string>): string {
  if (Array.isArray(value)) {
    return value
      .map((item) => {
        if (isRecord(item)) {
          if (typeof item.external_id === 'string')
            return `${String(item.source_name ?? '')} ${item.external_id}`.trim();
          if (typeof item.phase_name === 'string') return `${String(item.kill_chain_name ?? '')}: ${item.phase_name}`;
          return JSON.stringify(item);
        }
        return typeof item === 'string' ? (names.get(item) ?? item) : String(item);
      })
      .join(', ');
  }
  if (isRecord(value))
    return Object.entries(value)
      .map(([key, inner]) => `${key}: ${cellText(inner)}`)
      .join(', ');
  return typeof value === 'string' ? (names.get(value) ?? value) : cellText(value);
}

/**
 * A STIX 2.1 object or bundle, read for drawing: each object's type, its name or summary and its key fields,
 * references shown by the referenced object's name when the bundle has it. Null when the text is not STIX JSON.
 */
export function parseStix(content: string): StixView | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || typeof parsed.type !== 'string') return null;
  const isBundle = parsed.type === 'bundle';
  const objects = (isBundle ? (Array.isArray(parsed.objects) ? parsed.objects : []) : [parsed]).filter(
    (object): object is Record<string, unknown> => isRecord(object) && typeof object.type === 'string',
  );
  const names = new Map<string, string>();
  for (const object of objects) {
    const label = object.name ?? object.value;
    if (typeof object.id === 'string' && typeof label === 'string') names.set(object.id, label);
  }
  const groups: StixView['groups'] = [];
  for (const object of objects) {
    const type = object.type as string;
    const id = typeof object.id === 'string' ? object.id : '';
    let title: string;
    if (type === 'relationship') {
      const source = fieldValue(object.source_ref, names);
      const target = fieldValue(object.target_ref, names);
      title = `${source} ${String(object.relationship_type ?? 'related-to')} ${target}`;
    } else {
      const label = object.name ?? object.value ?? object.pattern;
      title = typeof label === 'string' ? label : type;
    }
    const fields: StixField[] = [];
    for (const name of [...(KEY_FIELDS[type] ?? ['description']), ...COMMON_FIELDS]) {
      if (object[name] === undefined || (name === 'pattern' && title === object.pattern)) continue;
      fields.push({ name, value: fieldValue(object[name], names) });
    }
    let group = groups.find((candidate) => candidate.type === type);
    if (!group) {
      group = { type, objects: [] };
      groups.push(group);
    }
    group.objects.push({ id, type, title, fields });
  }
  return { groups, bundleId: isBundle && typeof parsed.id === 'string' ? parsed.id : null };
}
