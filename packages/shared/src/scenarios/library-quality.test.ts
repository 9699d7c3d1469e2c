import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  achCredit,
  choiceCredit,
  estimateCredit,
  extractCredit,
  gradeSourceCredit,
  multiCredit,
  rankCredit,
  writeChecks,
} from '../runs/credit';
import { shownOrder } from '../runs/shuffle';
import { checkScenarioText, correctIsStrictlyLongest, formatProblem } from './check-scenario';
import type { ScenarioDefinition, ScenarioStep } from './scenario.schema';
import { resolveNextStep, type StepOutcome } from './step-flow';
import {
  CREDIBILITY_GRADES,
  DEFAULT_AUTO_WEIGHT,
  ESTIMATE_TERMS,
  RELIABILITY_GRADES,
  stepSkill,
  type AchMark,
} from './step-kinds';

/** The built-in library, `content/scenarios/` at the repository root. */
const BUILTIN_SCENARIOS_DIR = fileURLToPath(new URL('../../../../content/scenarios/', import.meta.url));

// The curriculum's quality bar (content/README.md), computed over every built-in file: a rule broken is a red
// build. The two test-wise strategies are played through the real credit rules and step flow.

const PASS_PERCENT = 70;
/** The share of scored choice steps whose right option may have the most clauses. */
const LIBRARY_MOST_CLAUSES_SHARE = 0.35;
/** The mean credit a constant answer may earn on its kind. */
const CONSTANT_CREDIT_LIMIT = 0.5;
/** Runs over which a strategy facing the per-run shuffle (rank, ACH) is averaged. */
const SHUFFLED_RUNS = 400;
/**
 * Submitting a rank in the order shown earns 0.5 in expectation (a uniform shuffle); over SHUFFLED_RUNS seeded
 * runs the mean may stray this far above it by chance.
 */
const SAMPLING_TOLERANCE = 0.02;
/** Library-wide, at least this share of scored steps trains an analyst skill (not `response`). */
const LIBRARY_ANALYST_SHARE = 0.6;
const ANALYST_KINDS = ['multi', 'rank', 'estimate', 'grade-source', 'extract', 'ach', 'write'] as const;
const LIBRARY_LONGEST_SHARE = 0.35;
const LIBRARY_SHORTEST_SHARE = 0.35;
const FILE_LONGEST_SHARE = 0.4;
const RANDOM_RUNS = 400;
/** The built-in tutorial teaches the player itself in a few steps; it is exempt from the length rule only. */
const TUTORIAL_ID = 'tutorial-first-case';

interface LibraryFile {
  file: string;
  text: string;
  scenario: ScenarioDefinition;
  /** What the checker refuses in a built-in file (stricter than an upload). */
  builtinProblems: string[];
}

function loadLibrary(): LibraryFile[] {
  const names = readdirSync(BUILTIN_SCENARIOS_DIR)
    .filter((name) => /\.(ya?ml|json)$/i.test(name))
    .sort();
  return names.map((file) => {
    const text = readFileSync(path.join(BUILTIN_SCENARIOS_DIR, file), 'utf8');
    const checked = checkScenarioText(text);
    if (!checked.ok) throw new Error(`${file} fails the checker:\n${checked.problems.map(formatProblem).join('\n')}`);
    const builtin = checkScenarioText(text, { origin: 'builtin' });
    return {
      file,
      text,
      scenario: checked.scenario,
      builtinProblems: builtin.ok ? [] : builtin.problems.map(formatProblem),
    };
  });
}

const library = loadLibrary();

// --- playing a run with a strategy ------------------------------------------------------------------

/** What a strategy submits first on a step: the credit it earns and the way on. */
interface Submission {
  credit: number;
  outcome: StepOutcome;
}

interface Strategy {
  /** The first submission on a step. */
  answer(step: ScenarioStep, chance: Chance): Submission;
  /** The next choice option after a Retry, among those not tried yet (file indexes). */
  retry(step: ScenarioStep & { kind: 'choice' }, untried: number[], chance: Chance): number;
}

/** The percent a completed run earns (credits over the scored steps visited), as the run engine computes it. */
function play(scenario: ScenarioDefinition, strategy: Strategy, chance: Chance = noChance): number {
  const { steps } = scenario;
  let current: ScenarioStep | undefined = steps[0];
  let credit = 0;
  let visited = 0;
  for (let guard = 0; current && guard < 500; guard++) {
    const step: ScenarioStep = current;
    const first = strategy.answer(step, chance);
    if (step.scored !== false) {
      credit += Math.round(first.credit * 1000);
      visited += 1;
    }
    let next = resolveNextStep(steps, step.id, first.outcome);
    if (next.kind === 'retry' && step.kind === 'choice') {
      const untried = step.options.map((_option, index) => index).filter((index) => index !== first.outcome);
      while (next.kind === 'retry') {
        const pick = strategy.retry(step, untried, chance);
        untried.splice(untried.indexOf(pick), 1);
        next = resolveNextStep(steps, step.id, pick);
      }
    }
    if (next.kind === 'finish') return visited === 0 ? 0 : Math.min(100, Math.round(credit / (10 * visited)));
    const nextId = next.kind === 'step' ? next.stepId : step.id;
    current = steps.find((candidate) => candidate.id === nextId);
  }
  throw new Error(`${scenario.id}: the run does not finish`);
}

type LengthPreference = 'longest' | 'shortest' | 'most-clauses';

/**
 * The clauses of an option as a test-wise reader counts them: commas, semicolons, "and", "then". The right
 * option written as the fullest sentence is a tell like the longest one.
 */
export const clauseCount = (text: string) => (text.match(/[,;]|\band\b|\bthen\b/gi) ?? []).length + 1;

/** How strongly a preference likes a text: its length, its shortness or its clauses (then its length). */
const preferenceScore = (text: string, preference: LengthPreference) =>
  preference === 'longest'
    ? text.length
    : preference === 'shortest'
      ? -text.length
      : clauseCount(text) * 10_000 + text.length;

/** File indexes from the preferred text down: longest first, shortest first, or most clauses first. */
const byLength = (texts: readonly string[], preference: LengthPreference) =>
  texts
    .map((text, index) => ({ text, index }))
    .sort((a, b) => preferenceScore(b.text, preference) - preferenceScore(a.text, preference) || a.index - b.index);

const preferredIndex = (texts: readonly string[], preference: LengthPreference) =>
  byLength(texts, preference)[0]?.index ?? 0;

const writeAutoShare = (step: ScenarioStep & { kind: 'write' }) => step.auto_weight ?? DEFAULT_AUTO_WEIGHT;

/**
 * Always the longest (or the shortest) option; on other kinds the middle or most cautious answer, and every
 * automatic write check passed.
 */
function lengthStrategy(preference: LengthPreference): Strategy {
  return {
    answer(step) {
      switch (step.kind) {
        case 'choice': {
          const index = preferredIndex(
            step.options.map((option) => option.text),
            preference,
          );
          return { credit: choiceCredit(step, index), outcome: index };
        }
        case 'multi': {
          const index = preferredIndex(
            step.options.map((option) => option.text),
            preference,
          );
          return credited(
            multiCredit(
              step.options.map((option) => option.correct === true),
              [index],
            ).credit,
          );
        }
        case 'rank':
          return credited(
            rankCredit(
              byLength(
                step.options.map((option) => option.text),
                preference,
              ).map(({ index }) => index),
            ).credit,
          );
        case 'estimate':
          return credited(estimateCredit('roughly-even-chance', step.accept));
        case 'grade-source':
          return credited(gradeSourceCredit({ reliability: 'C', credibility: 3 }, step).credit);
        case 'extract':
          return credited(
            extractCredit(
              step.fields,
              step.fields.map(() => ''),
            ),
          );
        case 'ach':
          return credited(
            achCredit(
              { marks: step.evidence.map((row) => row.marks), best: step.best },
              {
                marks: step.evidence.map((row) => row.marks.map((): AchMark => 'C')),
                best: preferredIndex(step.hypotheses, preference),
              },
            ).credit,
          );
        case 'write':
          return credited(writeAutoShare(step));
      }
    },
    retry(step, untried) {
      return (
        byLength(
          step.options.map((option) => option.text),
          preference,
        ).find(({ index }) => untried.includes(index))?.index ??
        untried[0] ??
        0
      );
    },
  };
}

const longestStrategy = lengthStrategy('longest');
const shortestStrategy = lengthStrategy('shortest');
const mostClausesStrategy = lengthStrategy('most-clauses');

const pickOne = <T>(items: readonly T[], chance: Chance): T => items[chance.index(items.length)] as T;

/** A guesser: uniform over the options, terms, grades and marks; every automatic write check passed. */
const randomStrategy: Strategy = {
  answer(step, chance) {
    switch (step.kind) {
      case 'choice': {
        const index = chance.index(step.options.length);
        return { credit: choiceCredit(step, index), outcome: index };
      }
      case 'multi': {
        const selected = step.options.map((_option, index) => index).filter(() => chance.index(2) === 0);
        return credited(
          multiCredit(
            step.options.map((option) => option.correct === true),
            selected,
          ).credit,
        );
      }
      case 'rank':
        return credited(rankCredit(chance.order(step.options.length)).credit);
      case 'estimate':
        return credited(estimateCredit(pickOne(ESTIMATE_TERMS, chance), step.accept));
      case 'grade-source':
        return credited(
          gradeSourceCredit(
            { reliability: pickOne(RELIABILITY_GRADES, chance), credibility: 1 + chance.index(6) },
            step,
          ).credit,
        );
      case 'extract':
        return credited(0);
      case 'ach':
        return credited(
          achCredit(
            { marks: step.evidence.map((row) => row.marks), best: step.best },
            {
              marks: step.evidence.map((row) => row.marks.map(() => pickOne<AchMark>(['C', 'I', 'N'], chance))),
              best: chance.index(step.hypotheses.length),
            },
          ).credit,
        );
      case 'write':
        return credited(writeAutoShare(step));
    }
  },
  retry(_step, untried, chance) {
    return pickOne(untried, chance);
  },
};

function credited(credit: number): Submission {
  return { credit, outcome: { credit } };
}

/** A guesser's dice: uniform draws taken from the run shuffle, keyed by the run and a counter, so every run repeats exactly. */
interface Chance {
  /** A uniform index in 0..count-1. */
  index(count: number): number;
  /** A uniform order of 0..count-1. */
  order(count: number): number[];
}

function chanceFor(run: number): Chance {
  let draw = 0;
  const order = (count: number) => shownOrder(`guess-${run}`, String(draw++), count);
  return { order, index: (count) => order(count)[0] ?? 0 };
}

/** The strategies that read nothing never draw. */
const noChance: Chance = chanceFor(-1);

function meanRandomPercent(scenario: ScenarioDefinition): number {
  let total = 0;
  for (let run = 0; run < RANDOM_RUNS; run++) total += play(scenario, randomStrategy, chanceFor(run));
  return total / RANDOM_RUNS;
}

// --- indicators ------------------------------------------------------------------------------------

/**
 * Real names a scenario may show: the well-known services its reports name, never as attacker infrastructure.
 * The name itself (and its www. host) is allowed; a host under it only when listed in REAL_HOSTS_ALLOWED, so an
 * invented tenant under a real provider (`acme.okta.com`, `acme-prod.snowflakecomputing.com`) is refused: it
 * may be someone's real tenant.
 */
const REAL_SERVICES_ALLOWED = [
  'snowflakecomputing.com',
  'snowflake.com',
  'microsoft.com',
  // The product name ASP.NET reads as a host name.
  'asp.net',
  'microsoftonline.com',
  'windowsupdate.com',
  'office.com',
  'outlook.com',
  'windows.net',
  'azure.com',
  'google.com',
  'gmail.com',
  'cloudflare.com',
  'github.com',
  'telegram.org',
  't.me',
  'x.com',
  'twitter.com',
  'virustotal.com',
  'shodan.io',
  'censys.io',
  'atlassian.net',
  'okta.com',
  'progress.com',
  'ipgeolocation.io',
  'citrix.com',
  'cisa.gov',
  'ic3.gov',
  'ncsc.gov.uk',
] as const;

/** Real hosts of the services above that the library names as they are (service endpoints, not tenants). */
const REAL_HOSTS_ALLOWED = [
  'login.microsoftonline.com',
  'graph.microsoft.com',
  'ctldl.windowsupdate.com',
  'msrc.microsoft.com',
  'sec.okta.com',
  'blog.cloudflare.com',
  'community.progress.com',
  'cloud.google.com',
] as const;

/** A real service name, its www. host, or a listed real host of it. */
const isAllowedRealName = (domain: string) =>
  REAL_SERVICES_ALLOWED.some((service) => domain === service || domain === `www.${service}`) ||
  (REAL_HOSTS_ALLOWED as readonly string[]).includes(domain);

const RESERVED_DOMAIN =
  /(^|\.)(example|test|invalid|localhost|local|internal|lan|corp|home\.arpa)$|(^|\.)example\.(com|net|org)$/;

// Top-level domains a real host name would end with; file names (.exe, .dll, .ps1, .txt...) do not match.
const DOMAIN_IN_TEXT =
  /\b((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|info|biz|io|co|me|ru|su|ir|cn|kp|ua|il|sd|uk|de|fr|nl|eu|us|gov|mil|edu|xyz|top|online|site|app|dev|cloud|live|onion|tk|cc|ws|pw|example|test|invalid|local|internal))\b/gi;

const IPV4_IN_TEXT = /(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d]|\.\d)/g;
const IPV6_IN_TEXT = /(?<![\w:])([0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7})(?![\w:])/gi;

function isReservedIpv4(octets: number[]): boolean {
  const [a = 0, b = 0, c = 0] = octets;
  return (
    (a === 192 && b === 0 && c === 2) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127) ||
    a === 0
  );
}

const refangText = (text: string) =>
  text
    .replace(/hxxp/gi, 'http')
    .replace(/\[\.\]|\(\.\)|\{\.\}/g, '.')
    .replace(/\[@\]/g, '@')
    .replace(/\[:\]/g, ':');

/** Every domain, IPv4 and IPv6 address in a text that is neither reserved nor an allowed real service. */
function unreservedIndicators(rawText: string): string[] {
  const text = refangText(rawText);
  const found: string[] = [];
  for (const match of text.matchAll(DOMAIN_IN_TEXT)) {
    const domain = (match[1] ?? '').toLowerCase().replace(/\.$/, '');
    if (!isAllowedRealName(domain) && !RESERVED_DOMAIN.test(domain)) found.push(domain);
  }
  for (const match of text.matchAll(IPV4_IN_TEXT)) {
    const octets = match.slice(1, 5).map(Number);
    if (octets.some((octet) => octet > 255)) continue;
    if (!isReservedIpv4(octets)) found.push(match[0]);
  }
  for (const match of text.matchAll(IPV6_IN_TEXT)) {
    const address = (match[1] ?? '').toLowerCase();
    // Times (10:02:11) and MAC-like runs are not addresses: an IPv6 address here has "::" or eight groups.
    if (!address.includes('::') && address.split(':').length !== 8) continue;
    if (!/^(2001:db8:|2001:0db8:|fe80:|fc|fd|::1$)/.test(address)) found.push(address);
  }
  return found;
}

function artifactTexts(step: ScenarioStep): string[] {
  return (step.artifacts ?? []).flatMap((artifact) => [
    artifact.content,
    artifact.title ?? '',
    artifact.source ?? '',
    ...(artifact.indicators ?? []).flatMap((indicator) => [indicator.value, indicator.context ?? '']),
  ]);
}

// --- consequence branches --------------------------------------------------------------------------

/** Scenarios other than the tutorial show at least this many consequences of a weaker answer. */
const MIN_CONSEQUENCE_BRANCHES = 2;

/**
 * The consequence branches: each step and the different step a weaker answer (a choice option other than the
 * right one, or a first answer under `below`) leads to, when that step shows the consequence with artifacts of
 * its own, so the branch is played, not told. Retries are not branches.
 */
function consequenceBranches(scenario: ScenarioDefinition): string[] {
  const { steps } = scenario;
  const target = (step: ScenarioStep, outcome: StepOutcome) => {
    const next = resolveNextStep(steps, step.id, outcome);
    return next.kind === 'step' ? next.stepId : next.kind;
  };
  const shows = (stepId: string) => (steps.find((candidate) => candidate.id === stepId)?.artifacts?.length ?? 0) > 0;
  const branches = new Set<string>();
  for (const step of steps) {
    const best = target(step, step.kind === 'choice' ? step.correct_option : { credit: 1 });
    const weaker =
      step.kind === 'choice'
        ? step.options.flatMap((option, index) =>
            index === step.correct_option || option.next_step === null ? [] : [target(step, index)],
          )
        : step.below
          ? [target(step, { credit: 0 })]
          : [];
    for (const stepId of weaker) {
      if (stepId !== best && stepId !== 'finish' && stepId !== 'retry' && shows(stepId))
        branches.add(`${step.id} -> ${stepId}`);
    }
  }
  return [...branches];
}

// --- the tests -------------------------------------------------------------------------------------

const choiceSteps = (scenario: ScenarioDefinition) =>
  scenario.steps.filter((step): step is ScenarioStep & { kind: 'choice' } => step.kind === 'choice');

describe('the built-in library', () => {
  it('holds scenarios', () => {
    expect(library.length).toBeGreaterThan(0);
  });

  describe.each(library.map((entry) => [entry.scenario.id ?? entry.file, entry] as const))(
    '%s',
    (_id, { scenario, text, builtinProblems }) => {
      it('passes the checker as a built-in scenario', () => {
        expect(builtinProblems).toEqual([]);
      });

      it('has 8 to 18 steps (the tutorial 3 or 4, at difficulty 1)', () => {
        if (scenario.id === TUTORIAL_ID) {
          expect(scenario.steps.length).toBeGreaterThanOrEqual(3);
          expect(scenario.steps.length).toBeLessThanOrEqual(4);
          expect(scenario.difficulty).toBe(1);
          return;
        }
        expect(scenario.steps.length).toBeGreaterThanOrEqual(8);
        expect(scenario.steps.length).toBeLessThanOrEqual(18);
      });

      it('cites its public sources over https', () => {
        expect(scenario.sources?.length ?? 0).toBeGreaterThan(0);
        for (const source of scenario.sources ?? []) expect(source.url).toMatch(/^https:\/\//);
      });

      it('trains analyst skills in at least half of its scored steps', () => {
        const scored = scenario.steps.filter((step) => step.scored !== false);
        const analyst = scored.filter((step) => stepSkill(step) !== 'response');
        expect(analyst.length * 2).toBeGreaterThanOrEqual(scored.length);
      });

      it('does not make the right option the longest in more than 40 % of its choice steps', () => {
        const choices = choiceSteps(scenario);
        const longest = choices.filter((step) => correctIsStrictlyLongest(step)).map((step) => step.id);
        expect(longest.length, `longest right option in: ${longest.join(', ')}`).toBeLessThanOrEqual(
          FILE_LONGEST_SHARE * choices.length,
        );
      });

      it('fails a trainee who always picks the longest option', () => {
        expect(play(scenario, longestStrategy)).toBeLessThan(PASS_PERCENT);
      });

      it('fails a trainee who always picks the shortest option', () => {
        expect(play(scenario, shortestStrategy)).toBeLessThan(PASS_PERCENT);
      });

      it('fails a trainee who always picks the option with the most clauses', () => {
        expect(play(scenario, mostClausesStrategy)).toBeLessThan(PASS_PERCENT);
      });

      it('fails a trainee who guesses', () => {
        expect(meanRandomPercent(scenario)).toBeLessThan(PASS_PERCENT);
      });

      it('gives model answers that pass their own automatic checks', () => {
        const failing = scenario.steps.flatMap((step) =>
          step.kind === 'write'
            ? writeChecks(step, step.model_answer)
                .filter((check) => !check.passed)
                .map((check) => `${step.id}: ${check.reason ?? check.check}`)
            : [],
        );
        expect(failing).toEqual([]);
      });

      it('shows the consequence of a weaker answer in at least two branches (the tutorial excepted)', () => {
        if (scenario.id === TUTORIAL_ID) return;
        const branches = consequenceBranches(scenario);
        expect(branches.length, branches.join(', ')).toBeGreaterThanOrEqual(MIN_CONSEQUENCE_BRANCHES);
      });

      it('shows only reserved or allowed indicators in its artifacts', () => {
        const steps = scenario.steps.map((step) => ({
          id: step.id,
          found: unreservedIndicators(artifactTexts(step).join('\n')),
        }));
        expect(steps.filter((step) => step.found.length > 0)).toEqual([]);
        expect(text.length).toBeGreaterThan(0);
      });
    },
  );

  it('makes the right option the strictly longest in at most 35 % of all choice steps', () => {
    const choices = library.flatMap(({ scenario }) => choiceSteps(scenario));
    const longest = choices.filter((step) => correctIsStrictlyLongest(step));
    expect(longest.length).toBeLessThanOrEqual(LIBRARY_LONGEST_SHARE * choices.length);
  });

  it('makes the right option the strictly shortest in at most 35 % of all choice steps', () => {
    // Authors who shorten the right option to dodge the longest rule would only move the tell.
    const choices = library.flatMap(({ scenario }) => choiceSteps(scenario));
    const shortest = choices.filter((step) => {
      const length = step.options[step.correct_option]?.text.length ?? 0;
      return step.options.every((option, index) => index === step.correct_option || option.text.length > length);
    });
    expect(shortest.length).toBeLessThanOrEqual(LIBRARY_SHORTEST_SHARE * choices.length);
  });

  it('gives the right option the most clauses in at most 35 % of scored choice steps', () => {
    const choices = library.flatMap(({ scenario }) => choiceSteps(scenario).filter((step) => step.scored !== false));
    const picked = choices.filter(
      (step) =>
        byLength(
          step.options.map((option) => option.text),
          'most-clauses',
        )[0]?.index === step.correct_option,
    );
    expect(picked.length / choices.length).toBeLessThanOrEqual(LIBRARY_MOST_CLAUSES_SHARE);
  });

  describe('constant answers', () => {
    const steps = library.flatMap(({ scenario }) => scenario.steps.filter((step) => step.scored !== false));
    const ofKind = <K extends ScenarioStep['kind']>(kind: K) =>
      steps.filter((step): step is ScenarioStep & { kind: K } => step.kind === kind);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const seeds = Array.from({ length: SHUFFLED_RUNS }, (_, run) => `constant-${run}`);

    it.each(ESTIMATE_TERMS)('earns at most 0.5 mean credit by always answering %s', (term) => {
      expect(mean(ofKind('estimate').map((step) => estimateCredit(term, step.accept)))).toBeLessThanOrEqual(
        CONSTANT_CREDIT_LIMIT,
      );
    });

    it('earns at most 0.5 mean credit by always giving one Admiralty code', () => {
      const grades = ofKind('grade-source');
      const best = RELIABILITY_GRADES.flatMap((reliability) =>
        CREDIBILITY_GRADES.map((credibility) => ({
          code: `${reliability}${credibility}`,
          credit: mean(grades.map((step) => gradeSourceCredit({ reliability, credibility }, step).credit)),
        })),
      ).sort((a, b) => b.credit - a.credit)[0];
      expect(best?.credit ?? 0, `always ${best?.code}`).toBeLessThanOrEqual(CONSTANT_CREDIT_LIMIT);
    });

    it('uses reliability A and credibility 6 in some grade-source key', () => {
      const grades = ofKind('grade-source');
      expect(grades.some((step) => step.reliability === 'A')).toBe(true);
      expect(grades.some((step) => step.credibility === 6)).toBe(true);
    });

    it('earns at most 0.5 mean credit by selecting every option of a multi step', () => {
      const credits = ofKind('multi').map(
        (step) =>
          multiCredit(
            step.options.map((option) => option.correct === true),
            step.options.map((_option, index) => index),
          ).credit,
      );
      expect(mean(credits)).toBeLessThanOrEqual(CONSTANT_CREDIT_LIMIT);
    });

    it('earns at most 0.5 mean credit by submitting a rank in the order shown', () => {
      const credits = ofKind('rank').flatMap((step) =>
        seeds.map((seed) => rankCredit(shownOrder(seed, step.id, step.options.length)).credit),
      );
      expect(mean(credits)).toBeLessThanOrEqual(CONSTANT_CREDIT_LIMIT + SAMPLING_TOLERANCE);
    });

    it.each<AchMark>(['C', 'I', 'N'])(
      'earns at most 0.5 mean credit by picking the first hypothesis shown and marking every cell %s',
      (mark) => {
        const credits = ofKind('ach').flatMap((step) =>
          seeds.map(
            (seed) =>
              achCredit(
                { marks: step.evidence.map((row) => row.marks), best: step.best },
                {
                  marks: step.evidence.map((row) => row.marks.map(() => mark)),
                  best: shownOrder(seed, step.id, step.hypotheses.length)[0] ?? 0,
                },
              ).credit,
          ),
        );
        expect(mean(credits)).toBeLessThanOrEqual(CONSTANT_CREDIT_LIMIT);
      },
    );
  });

  it('trains analyst skills in at least 60 % of the scored steps across the library', () => {
    const scored = library.flatMap(({ scenario }) => scenario.steps.filter((step) => step.scored !== false));
    const analyst = scored.filter((step) => stepSkill(step) !== 'response');
    expect(analyst.length / scored.length).toBeGreaterThanOrEqual(LIBRARY_ANALYST_SHARE);
  });

  it.each(ANALYST_KINDS)('uses the %s kind in at least three scenarios', (kind) => {
    const using = library.filter(({ scenario }) => scenario.steps.some((step) => step.kind === kind));
    expect(using.length).toBeGreaterThanOrEqual(3);
  });

  it('uses at least four TLP 2.0 labels', () => {
    const labels = new Set(
      library.flatMap(({ scenario }) =>
        scenario.steps.flatMap((step) => (step.artifacts ?? []).flatMap((artifact) => artifact.tlp ?? [])),
      ),
    );
    expect(labels.size).toBeGreaterThanOrEqual(4);
  });

  it('varies the defensible likelihood instead of always rewarding the hedged middle', () => {
    const estimates = library.flatMap(({ scenario }) => scenario.steps.filter((step) => step.kind === 'estimate'));
    const middle = estimates.filter((step) => step.accept.includes('roughly-even-chance'));
    const firm = estimates.filter((step) =>
      step.accept.some((term) => term !== 'roughly-even-chance' && term !== 'likely' && term !== 'unlikely'),
    );
    expect(middle.length * 2).toBeLessThanOrEqual(estimates.length);
    expect(firm.length).toBeGreaterThan(0);
  });

  it('uses every difficulty from 1 to 5', () => {
    expect(new Set(library.map(({ scenario }) => scenario.difficulty))).toEqual(new Set([1, 2, 3, 4, 5]));
  });
});

describe('the indicator check', () => {
  it('flags real infrastructure and lets reserved names, addresses and file names pass', () => {
    expect(
      unreservedIndicators('GET http://cdn-update.example/a.bin from 203.0.113.7 and 10.1.2.3; C:\\x\\adobelib.dll'),
    ).toEqual([]);
    expect(unreservedIndicators('beacon to evil-cdn.com at 8.8.8.8 and 2606:4700::1111')).toEqual([
      'evil-cdn.com',
      '8.8.8.8',
      '2606:4700::1111',
    ]);
    expect(unreservedIndicators('hxxps://login.microsoftonline[.]com 2001:db8::5 10:02:11 okta.com')).toEqual([]);
  });

  it('refuses an invented tenant under a real provider, which may be somebody real', () => {
    expect(
      unreservedIndicators('hxxps://mly-prod.snowflakecomputing[.]com and larchmont.okta.com, not tenant.okta.example'),
    ).toEqual(['mly-prod.snowflakecomputing.com', 'larchmont.okta.com']);
  });

  it('plays the longest strategy through a Retry to the end', () => {
    const scenario = {
      name: 'probe',
      type: 'Ransomware',
      difficulty: 1,
      description: 'probe',
      steps: [
        {
          kind: 'choice' as const,
          id: 'a',
          title: 'a',
          description: 'a',
          options: [{ text: 'the longest option, a Retry', next_step: null }, { text: 'right' }],
          correct_option: 1,
        },
        {
          kind: 'choice' as const,
          id: 'b',
          title: 'b',
          description: 'b',
          options: [{ text: 'right and long' }, { text: 'no' }],
          correct_option: 0,
        },
      ],
    } satisfies ScenarioDefinition;
    expect(play(scenario, longestStrategy)).toBe(50);
  });
});
