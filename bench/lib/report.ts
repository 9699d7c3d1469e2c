import fs from 'node:fs';
import path from 'node:path';
import { machineInfo, RESULTS_DIR, type Machine } from './env';

export interface Target {
  /** What is measured, e.g. "answer path, 100 trainees, SQLite: p99". */
  name: string;
  /** The target as written in the issue, e.g. "< 50 ms". */
  target: string;
  /** The measured figure, with its unit. */
  measured: string;
  pass: boolean;
}

/** One benchmark's or campaign's part of the report. */
export interface Section {
  id: SectionId | 'answer-before';
  title: string;
  date: string;
  quick: boolean;
  durationSeconds: number;
  targets: Target[];
  /** The section's body in markdown (tables of every number). */
  markdown: string;
  /** The raw figures, for anyone who wants to plot them. */
  data: unknown;
}

/** The parts `npm run bench` runs, in this order. */
export const SECTION_ORDER = ['answer', 'pages', 'browser', 'crash', 'bad-input', 'hostile-files'] as const;
export type SectionId = (typeof SECTION_ORDER)[number];
/** The order sections appear in the report: each part, and the answer path measured before its fixes. */
const REPORT_ORDER = ['answer', 'answer-before', 'pages', 'browser', 'crash', 'bad-input', 'hostile-files'];

export function saveSection(section: Section): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, `${section.id}.json`), `${JSON.stringify(section, null, 2)}\n`);
}

function loadSections(): Section[] {
  return REPORT_ORDER.flatMap((id) => {
    const file = path.join(RESULTS_DIR, `${id}.json`);
    if (!fs.existsSync(file)) return [];
    return [JSON.parse(fs.readFileSync(file, 'utf8')) as Section];
  });
}

/** A markdown table; numbers are right-aligned. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const numeric = headers.map((_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'));
  const cell = (value: string | number) => String(value).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    `| ${headers.join(' | ')} |`,
    `| ${numeric.map((right) => (right ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

export const passMark = (pass: boolean) => (pass ? 'PASS' : '**MISS**');

/** Writes bench/results/latest.md from every section on file (the ones just run and any earlier ones). */
export function writeLatest(machine: Pick<Machine, 'sqlite' | 'postgres'>, command: string): string {
  const sections = loadSections();
  const info = { ...machineInfo(), ...machine };
  const targets = sections.flatMap((section) => section.targets.map((target) => ({ section, target })));
  const passed = targets.filter(({ target }) => target.pass).length;
  const lines = [
    '# Tradecraft benchmarks and resilience campaigns',
    '',
    `Written by \`${command}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Every server, database and`,
    'browser ran on this one machine and talked only to 127.0.0.1; the load generator shares the CPUs with the server.',
    '',
    table(
      ['machine', ''],
      [
        ['CPUs (nproc)', `${info.cpus} × ${info.cpuModel}`],
        ['memory', `${info.memoryGiB} GiB`],
        ['Node.js', info.node],
        ['OS', info.os],
        ['SQLite', info.sqlite],
        ['PostgreSQL', info.postgres ?? 'not available (PostgreSQL parts skipped)'],
      ],
    ),
    '',
    `## Targets: ${passed} of ${targets.length} met`,
    '',
    table(
      ['part', 'measure', 'target', 'measured', 'result'],
      targets.map(({ section, target }) => [
        section.title,
        target.name,
        target.target,
        target.measured,
        passMark(target.pass),
      ]),
    ),
    '',
  ];
  for (const section of sections) {
    lines.push(
      `## ${section.title}`,
      '',
      `_Run ${section.date.slice(0, 16).replace('T', ' ')} UTC, ${section.quick ? 'quick mode' : 'full mode'}, ${Math.round(section.durationSeconds)} s._`,
      '',
      section.markdown.trim(),
      '',
    );
  }
  const text = `${lines.join('\n').trim()}\n`;
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), text);
  return text;
}
