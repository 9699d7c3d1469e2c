import {
  brierScore,
  CALIBRATION_MIN_ESTIMATES,
  calibrationVerdict,
  ESTIMATE_TERM_INFO,
  ESTIMATE_TERMS,
  type Calibration,
  type StepResultOfKind,
  buildNavigatorLayer,
  sharePercent,
  skillComment,
  type NavigatorLayer,
  type Skills,
  type TechniqueSkill,
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
import { forbidden, notFound } from '../../errors';
import { findUserById } from '../users/users.service';
import { parseStepResult, skillScoresOf } from '../runs/run-figures';
import { PROGRESS_MESSAGES } from './progress.service';
import { listEstimateResults, tallySkills, tallyTechniques } from './progress.repository';

const TACTIC_ORDER = new Map(tactics.map((tactic, index) => [tactic.shortname, index]));

export interface SkillsScopeQuery {
  userId?: string | undefined;
  all: boolean;
}

/** Whose skills: the caller's own by default; admins may name anyone, or everyone together. */
async function resolveScope(db: Db, viewer: User, query: SkillsScopeQuery): Promise<User | null> {
  const admin = viewer.role === 'admin';
  if (query.all) {
    if (!admin) throw forbidden(PROGRESS_MESSAGES.ownSkillsOnly);
    return null;
  }
  if (!query.userId || query.userId === viewer.id) return viewer;
  if (!admin) throw forbidden(PROGRESS_MESSAGES.ownSkillsOnly);
  const user = await findUserById(db, query.userId);
  if (!user) throw notFound('No such user.');
  return user;
}

/** GET /api/progress/skills: answers and right answers per ATT&CK technique met. */
export async function skills(db: Db, viewer: User, query: SkillsScopeQuery): Promise<Skills> {
  const user = await resolveScope(db, viewer, query);
  const [tallies, skillTallies, estimates] = await Promise.all([
    tallyTechniques(db, user?.id ?? null),
    tallySkills(db, user?.id ?? null),
    listEstimateResults(db, user?.id ?? null),
  ]);

  // Old rows may spell an id differently (lower case); count them under the dataset's id.
  const merged = new Map<string, { attempts: number; correct: number; thousandths: number }>();
  for (const tally of tallies) {
    const id = techniqueKey(tally.technique);
    if (!id) continue;
    const current = merged.get(id) ?? { attempts: 0, correct: 0, thousandths: 0 };
    merged.set(id, {
      attempts: current.attempts + tally.attempts,
      correct: current.correct + tally.correct,
      thousandths: current.thousandths + tally.thousandths,
    });
  }

  const techniques: TechniqueSkill[] = [...merged.entries()]
    .map(([id, counts]) => {
      const known = findTechnique(id);
      return {
        ...techniqueRef(id),
        label: techniqueLabel(id),
        tactics: [...(known?.tactics ?? [])].sort((a, b) => (TACTIC_ORDER.get(a) ?? 99) - (TACTIC_ORDER.get(b) ?? 99)),
        subtechniqueOf: known?.subtechnique_of ?? null,
        url: known?.url ?? null,
        attempts: counts.attempts,
        correct: counts.correct,
        credit: counts.thousandths / 1000,
        sharePercent: sharePercent(counts.correct, counts.attempts) ?? 0,
      };
    })
    .sort((a, b) => a.id.localeCompare(b.id));

  return {
    scope: {
      kind: user ? 'user' : 'all',
      user: user ? { id: user.id, email: user.email, firstName: user.first_name, lastName: user.last_name } : null,
    },
    attackVersion: ATTACK_VERSION,
    techniques,
    totals: {
      attempts: techniques.reduce((sum, technique) => sum + technique.attempts, 0),
      correct: techniques.reduce((sum, technique) => sum + technique.correct, 0),
      techniques: techniques.length,
    },
    analystSkills: skillScoresOf(skillTallies, { all: true }),
    calibration: calibration(estimates),
  };
}

/**
 * Calibration over every estimate's first submission: the Brier score and, for each term used, how often it was
 * used, the probability it states and how often the statement came true.
 */
export function calibration(results: readonly string[]): Calibration {
  const estimates = results
    .map(parseStepResult)
    .filter((result): result is StepResultOfKind<'estimate'> => result?.kind === 'estimate')
    .map((result) => ({
      term: result.term,
      probability: ESTIMATE_TERM_INFO[result.term].probability,
      outcome: result.outcome,
    }));
  const reliability = ESTIMATE_TERMS.flatMap((term) => {
    const used = estimates.filter((estimate) => estimate.term === term);
    if (used.length === 0) return [];
    const { label, probability } = ESTIMATE_TERM_INFO[term];
    return [
      {
        term,
        label,
        probability,
        count: used.length,
        observedFrequency: used.filter((estimate) => estimate.outcome).length / used.length,
      },
    ];
  });
  const brier = brierScore(estimates);
  return {
    estimates: estimates.length,
    estimatesNeeded: CALIBRATION_MIN_ESTIMATES,
    brierScore: brier,
    verdict: calibrationVerdict(brier, estimates.length),
    reliability,
  };
}

/** The same skills as an ATT&CK Navigator layer (format 4.5). */
export async function skillsLayer(db: Db, viewer: User, query: SkillsScopeQuery): Promise<NavigatorLayer> {
  const data = await skills(db, viewer, query);
  const who = data.scope.user
    ? `${`${data.scope.user.firstName} ${data.scope.user.lastName}`.trim()} (${data.scope.user.email})`
    : 'all trainees';
  return buildNavigatorLayer({
    name: `Tradecraft skills: ${who}`,
    description: `Share of right first answers per ATT&CK technique in Tradecraft, for ${who}. Score = percent right.`,
    attackVersion: data.attackVersion,
    techniques: data.techniques.map((technique) => ({
      id: technique.id,
      attempts: technique.attempts,
      correct: technique.correct,
      subtechniqueOf: technique.subtechniqueOf,
    })),
    metadata: [
      { name: 'Trainee', value: data.scope.user?.email ?? 'Everyone' },
      { name: 'Answers', value: skillComment(data.totals.correct, data.totals.attempts) },
      { name: 'Generated', value: nowIso() },
    ],
  });
}
