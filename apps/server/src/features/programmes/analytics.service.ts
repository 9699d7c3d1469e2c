import { BoundedMap } from '../../bounded-map';
import {
  attentionOf,
  buildNavigatorLayer,
  DISCRIMINATION_GROUP_SHARE,
  itemFlags,
  neutraliseSpreadsheetCell,
  ASSIGNMENT_STATUS_LABELS,
  stepSkill,
  SKILL_LABELS,
  type CohortDetail,
  type Coverage,
  type ItemAnalysis,
  type NavigatorLayer,
  type Remediation,
  type Skill,
} from '@tradecraft/shared';
import {
  ATTACK_VERSION,
  findTechnique,
  tactics,
  techniqueKey,
  techniqueLabel,
  techniqueRef,
} from '@tradecraft/shared/attack';
import { nowIso } from '../../clock';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { notFound } from '../../errors';
import { recordAuditAlone } from '../audit/audit.service';
import { skills } from '../progress/skills.service';
import { parseStoredDefinition } from '../runs/run-figures';
import { findUserById } from '../users/users.service';
import { assignmentProgress, outcomesByUser } from './assignment-work';
import { assignmentViews, personOf, PROGRAMME_MESSAGES, targetsOf } from './programmes.service';
import {
  assignmentsOfCohort,
  countSampledRuns,
  findCohort,
  findScenarioDefinition,
  listMembers,
  libraryChanges,
  listPublishedScenarios,
  scenarioDefinitions,
  medianTimes,
  optionChoices,
  runsOf,
  stepFigures,
  publishedVersions,
  runCountsByVersion,
  tallyCohortTechniques,
} from './programmes.repository';

// What instructors read: the cohort matrix, its ATT&CK coverage, a trainee's remediation, item analysis.

/** GET /api/cohorts/:id: members, assignments, the trainees x assignments matrix and the overdue list. */
export async function cohortDetail(db: Db, id: string): Promise<CohortDetail> {
  const cohort = await findCohort(db, id);
  if (!cohort) throw notFound(PROGRAMME_MESSAGES.noCohort);
  const now = nowIso();
  const [members, rows] = await Promise.all([listMembers(db, id), assignmentsOfCohort(db, id)]);
  const [assignments, targets] = await Promise.all([assignmentViews(db, rows), targetsOf(db, rows)]);
  const scenarioIds = [...new Set(rows.flatMap((row) => targets.scenariosOf(row)))];
  const outcomes = outcomesByUser(
    await runsOf(
      db,
      members.map((member) => member.id),
      scenarioIds,
    ),
  );
  const overdue: CohortDetail['overdue'] = [];
  const matrix = members.map((member) => ({
    trainee: personOf(member),
    cells: rows.map((row, index) => {
      const progress = assignmentProgress(row, targets.scenariosOf(row), outcomes.get(member.id), now);
      if (progress.status === 'overdue')
        overdue.push({
          trainee: personOf(member),
          assignmentId: row.id,
          targetName: assignments[index]!.targetName,
          dueAt: row.due_at!,
        });
      return {
        assignmentId: row.id,
        status: progress.status,
        bestPercent: progress.bestPercent,
        result: progress.result,
      };
    }),
  }));
  overdue.sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.trainee.email.localeCompare(b.trainee.email));
  return {
    id: cohort.id,
    name: cohort.name,
    archived: cohort.archived_at !== null,
    createdAt: cohort.created_at,
    members: members.map(personOf),
    assignments,
    matrix,
    overdue,
    now,
  };
}

/** The matrix as CSV rows: one per trainee and assignment. Audited. */
export async function cohortCsvRows(db: Db, admin: User, id: string): Promise<string[][]> {
  const detail = await cohortDetail(db, id);
  await recordAuditAlone(db, {
    actor: admin.email,
    action: 'export cohort',
    details: `${detail.name}: ${detail.members.length} trainees`,
    screen: 'Cohorts',
  });
  const cell = (text: string) => neutraliseSpreadsheetCell(text);
  return detail.matrix.flatMap((row) =>
    row.cells.map((entry, index) => {
      const assignment = detail.assignments[index]!;
      return [
        cell(row.trainee.email),
        cell(`${row.trainee.firstName} ${row.trainee.lastName}`.trim()),
        cell(assignment.targetName),
        assignment.kind,
        assignment.dueAt ?? '',
        ASSIGNMENT_STATUS_LABELS[entry!.status],
        entry!.bestPercent === null ? '' : String(entry!.bestPercent),
      ];
    }),
  );
}

export const COHORT_CSV_HEADER = ['Email', 'Name', 'Assignment', 'Kind', 'Due (UTC)', 'Status', 'Best score (%)'];

export async function cohortCoverage(db: Db, id: string): Promise<Coverage & { name: string }> {
  const cohort = await findCohort(db, id);
  if (!cohort) throw notFound(PROGRAMME_MESSAGES.noCohort);
  const tallies = await tallyCohortTechniques(db, id);
  const merged = new Map<string, { attempts: number; correct: number; trainees: number }>();
  for (const tally of tallies) {
    const key = techniqueKey(tally.technique);
    if (!key) continue;
    const current = merged.get(key) ?? { attempts: 0, correct: 0, trainees: 0 };
    merged.set(key, {
      attempts: current.attempts + tally.attempts,
      correct: current.correct + tally.correct,
      trainees: Math.max(current.trainees, tally.trainees),
    });
  }
  return {
    name: cohort.name,
    techniques: [...merged.entries()]
      .map(([techniqueId, counts]) => ({
        id: techniqueId,
        name: techniqueRef(techniqueId).name,
        tactics: [...(findTechnique(techniqueId)?.tactics ?? [])],
        attempts: counts.attempts,
        correct: counts.correct,
        sharePercent: counts.attempts === 0 ? 0 : Math.round((100 * counts.correct) / counts.attempts),
        trainees: counts.trainees,
      }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    tactics: tactics.map((tactic) => ({ shortname: tactic.shortname, name: tactic.name })),
  };
}

export async function cohortLayer(db: Db, id: string): Promise<NavigatorLayer> {
  const coverage = await cohortCoverage(db, id);
  return buildNavigatorLayer({
    name: `Tradecraft cohort: ${coverage.name}`,
    description: `Share of first answers that were correct per ATT&CK technique, over the cohort "${coverage.name}".`,
    attackVersion: ATTACK_VERSION,
    techniques: coverage.techniques.map((technique) => ({
      id: technique.id,
      attempts: technique.attempts,
      correct: technique.correct,
      subtechniqueOf: findTechnique(technique.id)?.subtechnique_of ?? null,
    })),
    metadata: [
      { name: 'Cohort', value: coverage.name },
      { name: 'Generated', value: nowIso() },
    ],
  });
}

/** Techniques and skills below this share correct are weak. */
const WEAK_BELOW_PERCENT = 70;
const MAX_WEAK = 5;
const MAX_REMEDIATION = 4;

/** What each step of a scenario trains, in step order. */
type StepsTrained = { technique: string | null; skill: Skill }[];

// What a scenario trains changes only with its content: kept by what changes with every edit, so a new library
// reads the definitions of new or changed scenarios only, not every scenario's.
const STEPS_TRAINED_KEPT = 5000;
const stepsTrainedByContent = new BoundedMap<string, StepsTrained>(STEPS_TRAINED_KEPT);
const contentKey = (row: { id: string; content_hash: string; updated_at: string; current_version_id: string | null }) =>
  `${row.id}\u0000${row.content_hash}\u0000${row.updated_at}\u0000${row.current_version_id ?? ''}`;

async function stepsTrained(
  db: Db,
  scenarios: Awaited<ReturnType<typeof listPublishedScenarios>>,
): Promise<Map<string, StepsTrained>> {
  const missing = scenarios.filter((scenario) => !stepsTrainedByContent.has(contentKey(scenario)));
  const definitions = new Map(
    (
      await scenarioDefinitions(
        db,
        missing.map((scenario) => scenario.id),
      )
    ).map((row) => [row.id, row.definition]),
  );
  for (const scenario of missing) {
    const definition = parseStoredDefinition(definitions.get(scenario.id) ?? '{}');
    const steps = (definition?.steps ?? []).map((step) => ({
      technique: techniqueKey(step.mitre_attack),
      skill: stepSkill(step),
    }));
    stepsTrainedByContent.set(contentKey(scenario), steps);
  }
  return new Map(scenarios.map((scenario) => [scenario.id, stepsTrainedByContent.get(contentKey(scenario))!]));
}

type RemediationItem = Remediation['scenarios'][number];

/**
 * The published library by what it trains. Its scenarios are in the order remediation breaks ties in (easiest
 * first, then by name), so a scenario's place in the list is its tie-break; `byKey` lists, for each technique and
 * skill, the scenarios that train it, and `positions` where each scenario first trains each (its `trains` list
 * follows its steps).
 */
interface TrainingLibrary {
  scenarios: Omit<RemediationItem, 'trains'>[];
  byKey: Map<string, number[]>;
  positions: Map<string, number>[];
}

async function loadTrainingLibrary(db: Db): Promise<TrainingLibrary> {
  const published = await listPublishedScenarios(db);
  const trainedBy = await stepsTrained(db, published);
  published.sort((a, b) => a.difficulty - b.difficulty || a.name.localeCompare(b.name));
  const byKey = new Map<string, number[]>();
  const positions = published.map((scenario, index) => {
    const firstAt = new Map<string, number>();
    (trainedBy.get(scenario.id) ?? []).forEach(({ technique, skill }, position) => {
      for (const key of technique ? [technique, skill] : [skill]) {
        if (firstAt.has(key)) continue;
        firstAt.set(key, position);
        const trainers = byKey.get(key) ?? [];
        trainers.push(index);
        byKey.set(key, trainers);
      }
    });
    return firstAt;
  });
  return {
    scenarios: published.map(({ id, name, type, difficulty }) => ({ id, name, type, difficulty })),
    byKey,
    positions,
  };
}

/**
 * The training library as of the library's change count (a trigger moves it on with every write to scenarios,
 * migration 2026_11_26_0500): read again only after a change, by any server, so remediation's time does not grow
 * with the library. The count is read before the library, so a change made meanwhile is never taken for the
 * count it follows. Kept per database handle (tests run several databases in one process).
 */
const trainingLibraries = new WeakMap<Db, { changes: number; library: Promise<TrainingLibrary> }>();

async function currentTrainingLibrary(db: Db): Promise<TrainingLibrary> {
  const changes = await libraryChanges(db);
  if (changes === null) return loadTrainingLibrary(db);
  const kept = trainingLibraries.get(db);
  if (kept?.changes === changes) return kept.library;
  const library = loadTrainingLibrary(db);
  trainingLibraries.set(db, { changes, library });
  // A failed read is not kept: the next request reads again.
  library.catch(() => {
    if (trainingLibraries.get(db)?.library === library) trainingLibraries.delete(db);
  });
  return library;
}

/** A trainee's weakest techniques and skills and the published scenarios that train them. */
export async function remediation(db: Db, viewer: User, userId: string): Promise<Remediation> {
  const trainee = userId === viewer.id ? viewer : await findUserById(db, userId);
  if (!trainee) throw notFound('No user has that id.');
  const skillMap = await skills(db, viewer, { userId: trainee.id, all: false });
  const weakTechniques = skillMap.techniques
    .filter((technique) => technique.attempts > 0 && technique.sharePercent < WEAK_BELOW_PERCENT)
    .sort((a, b) => a.sharePercent - b.sharePercent || b.attempts - a.attempts || a.id.localeCompare(b.id))
    .slice(0, MAX_WEAK)
    .map((technique) => ({
      id: technique.id,
      name: technique.name,
      attempts: technique.attempts,
      sharePercent: technique.sharePercent,
    }));
  const weakSkills = skillMap.analystSkills
    .filter((skill) => skill.attempts > 0 && skill.percent < WEAK_BELOW_PERCENT)
    .sort((a, b) => a.percent - b.percent || a.skill.localeCompare(b.skill))
    .slice(0, 3);

  // A weak technique weighs twice its rank from the end, a weak skill its rank; each counts once per scenario.
  const weights = new Map<string, number>([
    ...weakTechniques.map((technique, index): [string, number] => [technique.id, (MAX_WEAK - index) * 2]),
    ...weakSkills.map((skill, index): [string, number] => [skill.skill, 3 - index]),
  ]);
  const library = weights.size === 0 ? null : await currentTrainingLibrary(db);
  // Only the scenarios that train a weak technique or skill are looked at, through the library's index; ties go
  // to the library's order (easiest first, then by name), and only the chosen few are described.
  const weightOf = new Map<number, number>();
  for (const [key, weight] of weights)
    for (const index of library?.byKey.get(key) ?? []) weightOf.set(index, (weightOf.get(index) ?? 0) + weight);
  const chosen = [...weightOf]
    .sort(([a, weightA], [b, weightB]) => weightB - weightA || a - b)
    .slice(0, MAX_REMEDIATION)
    .map(([index]): RemediationItem => {
      const firstAt = library!.positions[index]!;
      const trains = [...weights.keys()]
        .filter((key) => firstAt.has(key))
        .sort((a, b) => firstAt.get(a)! - firstAt.get(b)!);
      return {
        ...library!.scenarios[index]!,
        trains: trains.map((key) =>
          key in SKILL_LABELS ? SKILL_LABELS[key as keyof typeof SKILL_LABELS] : techniqueLabel(key),
        ),
      };
    });
  return {
    trainee: personOf(trainee),
    weakTechniques,
    weakSkills,
    scenarios: chosen,
  };
}

/**
 * The newest runs of a version the item analysis reads: enough for stable figures (a 27 % group of 135 finished
 * runs), and a bound on its time however many runs the version gathers (docs/programmes.md).
 */
export const ITEM_ANALYSIS_RUNS = 500;

/**
 * Item analysis of one version of a scenario (its steps and options are the version's), by grouped SQL over the
 * version's runs (no loop over runs). By default the newest version that has runs, else the current one.
 */
export async function itemAnalysis(db: Db, scenarioId: string, versionNumber?: number): Promise<ItemAnalysis> {
  const scenario = await findScenarioDefinition(db, scenarioId);
  if (!scenario) throw notFound('No scenario has that id.');
  const [rows, counts] = await Promise.all([publishedVersions(db, scenarioId), runCountsByVersion(db, scenarioId)]);
  // Runs that record no version play the current one.
  const versions = rows.map((row) => ({
    id: row.id,
    number: Number(row.number),
    state: row.state as 'published' | 'superseded',
    publishedAt: row.published_at,
    definition: row.definition,
    runs: (counts.get(row.id) ?? 0) + (row.id === scenario.current_version_id ? (counts.get(null) ?? 0) : 0),
  }));
  const chosen =
    versionNumber !== undefined
      ? versions.find((version) => version.number === versionNumber)
      : (versions.find((version) => version.runs > 0) ?? versions.find((version) => version.state === 'published'));
  if (versionNumber !== undefined && !chosen)
    throw notFound(`This scenario has no published version ${versionNumber}.`);
  const definition = parseStoredDefinition(chosen?.definition ?? scenario.definition);
  const runs = chosen && {
    scenarioId,
    versionId: chosen.id,
    unpinned: chosen.id === scenario.current_version_id,
    limit: ITEM_ANALYSIS_RUNS,
  };
  const { analysed, finished } = runs ? await countSampledRuns(db, runs) : { analysed: 0, finished: 0 };
  const groupSize = finished >= 4 ? Math.max(1, Math.floor(finished * DISCRIMINATION_GROUP_SHARE)) : 0;
  const [figures, choices, medians] = runs
    ? await Promise.all([
        stepFigures(db, runs, finished, groupSize),
        optionChoices(db, runs, finished, groupSize),
        medianTimes(db, runs),
      ])
    : [[], [], new Map<string, number>()];
  const figuresByStep = new Map(figures.map((row) => [row.stepId, row]));
  const stepIds = [
    ...(definition?.steps.map((step) => step.id) ?? []),
    ...figures.map((row) => row.stepId).filter((stepId) => !definition?.steps.some((step) => step.id === stepId)),
  ];
  const steps = stepIds.map((stepId) => {
    const step = definition?.steps.find((candidate) => candidate.id === stepId);
    const row = figuresByStep.get(stepId);
    const options =
      step && step.kind === 'choice'
        ? step.options.map((option, index) => {
            const chosen = choices.find((choice) => choice.stepId === stepId && choice.optionIndex === index);
            return {
              index,
              text: typeof option === 'string' ? option : option.text,
              correct: index === step.correct_option,
              chosen: chosen?.chosen ?? 0,
              chosenByTop: chosen?.byTop ?? 0,
            };
          })
        : [];
    const discrimination =
      groupSize > 0 && row && row.topCredit !== null && row.bottomCredit !== null
        ? Math.round((row.topCredit - row.bottomCredit) * 100) / 100
        : null;
    const meanCredit = row?.meanCredit === null || row === undefined ? null : Math.round(row.meanCredit * 100) / 100;
    const flags = itemFlags({
      answered: row?.answered ?? 0,
      meanCredit,
      discrimination,
      options,
      topGroupSize: groupSize,
    });
    return {
      stepId,
      title: step?.title ?? stepId,
      kind: step?.kind ?? row?.kind ?? 'choice',
      reached: row?.reached ?? 0,
      answered: row?.answered ?? 0,
      meanCredit,
      discrimination,
      medianTimeMs: medians.get(stepId) ?? null,
      options,
      flags,
      attention: attentionOf(flags),
    };
  });
  // Most attention first; then the order of the scenario.
  const order = new Map(stepIds.map((stepId, index) => [stepId, index]));
  steps.sort((a, b) => b.attention - a.attention || order.get(a.stepId)! - order.get(b.stepId)!);
  const versionView = ({ definition: _definition, id: _id, ...version }: (typeof versions)[number]) => version;
  return {
    scenario: { id: scenario.id, name: scenario.name },
    version: chosen ? versionView(chosen) : null,
    versions: versions.map(versionView),
    runs: chosen?.runs ?? 0,
    analysedRuns: analysed,
    finishedRuns: finished,
    groupSize,
    steps,
  };
}
