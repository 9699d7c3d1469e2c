import { randomUUID } from 'node:crypto';
import { PASS_MARK_PERCENT } from '@tradecraft/shared';
import type { JournalRun, RunJournalEntry } from '../../plugins/run-journal';

// Builds the xAPI 1.0.3 statements of a run (docs/interoperability.md, "xAPI"): what each verb means here, the
// activity ids under PUBLIC_ORIGIN and the extensions are documented there. Pure: the outbox stores what this
// returns, so a statement is built once, with the facts as they were when it happened.

export interface StatementSettings {
  /** PUBLIC_ORIGIN, without a trailing slash: every activity and extension id lives under it. */
  publicOrigin: string;
  /** `mbox` names the trainee by email; `account` by their id on this site, without name or email. */
  actor: 'mbox' | 'account';
}

const VERB_BASE = 'http://adlnet.gov/expapi/verbs/';
type VerbName = 'launched' | 'initialized' | 'answered' | 'completed' | 'passed' | 'failed' | 'terminated' | 'resumed';

const SIMULATION = 'http://adlnet.gov/expapi/activities/simulation';
const INTERACTION = 'http://adlnet.gov/expapi/activities/cmi.interaction';

/** How each step kind answers, in the SCORM interaction vocabulary xAPI borrows. */
const INTERACTION_TYPES: Record<string, string> = {
  choice: 'choice',
  multi: 'choice',
  rank: 'sequencing',
  estimate: 'likert',
  'grade-source': 'choice',
  extract: 'fill-in',
  ach: 'matching',
  write: 'long-fill-in',
};

export interface XapiStatement {
  id: string;
  actor: Record<string, unknown>;
  verb: { id: string; display: { 'en-US': string } };
  object: Record<string, unknown>;
  result?: Record<string, unknown>;
  context: Record<string, unknown>;
  timestamp: string;
}

/** The activity id of a scenario, and of one of its steps. */
export const scenarioActivityId = (settings: StatementSettings, scenarioId: string) =>
  `${settings.publicOrigin}/xapi/activities/scenarios/${encodeURIComponent(scenarioId)}`;

export const stepActivityId = (settings: StatementSettings, scenarioId: string, stepId: string) =>
  `${scenarioActivityId(settings, scenarioId)}/steps/${encodeURIComponent(stepId)}`;

/** The IRI of one of the extensions this product writes. */
export const extensionId = (
  settings: StatementSettings,
  name: 'attack-technique' | 'analyst-skill' | 'scenario-version' | 'hint-used',
) => `${settings.publicOrigin}/xapi/extensions/${name}`;

/** An ISO 8601 duration to the hundredth of a second, as xAPI asks ("PT4M5.25S" is written "PT245.25S"). */
export function isoDuration(milliseconds: number): string {
  const hundredths = Math.max(0, Math.round(milliseconds / 10));
  const seconds = Math.floor(hundredths / 100);
  const fraction = hundredths % 100;
  return fraction === 0 ? `PT${seconds}S` : `PT${seconds}.${String(fraction).padStart(2, '0').replace(/0$/, '')}S`;
}

function actorOf(settings: StatementSettings, run: JournalRun): Record<string, unknown> {
  if (settings.actor === 'account') {
    return { objectType: 'Agent', account: { homePage: settings.publicOrigin, name: run.user.id } };
  }
  const name = `${run.user.firstName} ${run.user.lastName}`.trim();
  return { objectType: 'Agent', ...(name ? { name } : {}), mbox: `mailto:${run.user.email}` };
}

const verb = (name: VerbName) => ({ id: `${VERB_BASE}${name}`, display: { 'en-US': name } });

function scenarioActivity(settings: StatementSettings, run: JournalRun): Record<string, unknown> {
  return {
    objectType: 'Activity',
    id: scenarioActivityId(settings, run.scenarioId),
    definition: { type: SIMULATION, name: { 'en-US': run.scenarioName } },
  };
}

function contextOf(settings: StatementSettings, run: JournalRun, withParent: boolean): Record<string, unknown> {
  return {
    registration: run.id,
    platform: 'Tradecraft',
    language: 'en',
    ...(withParent
      ? {
          contextActivities: { parent: [{ objectType: 'Activity', id: scenarioActivityId(settings, run.scenarioId) }] },
        }
      : {}),
    ...(run.versionId ? { extensions: { [extensionId(settings, 'scenario-version')]: run.versionId } } : {}),
  };
}

const elapsed = (from: string, to: string) => Math.max(0, Date.parse(to) - Date.parse(from));

/** A statement about the run as a whole (launched, initialized, resumed, completed, passed, failed, terminated). */
function runStatement(
  settings: StatementSettings,
  run: JournalRun,
  name: VerbName,
  at: string,
  result?: Record<string, unknown>,
): XapiStatement {
  return {
    id: randomUUID(),
    actor: actorOf(settings, run),
    verb: verb(name),
    object: scenarioActivity(settings, run),
    ...(result ? { result } : {}),
    context: contextOf(settings, run, false),
    timestamp: at,
  };
}

/** The statements one journal entry of the run engine makes, in the order they happened. */
export function statementsOf(settings: StatementSettings, entry: RunJournalEntry): XapiStatement[] {
  const { run, at } = entry;
  switch (entry.kind) {
    case 'started':
      return [runStatement(settings, run, 'launched', at), runStatement(settings, run, 'initialized', at)];
    case 'resumed':
      return [runStatement(settings, run, 'resumed', at)];
    case 'ended':
      return [runStatement(settings, run, 'terminated', at, { duration: isoDuration(elapsed(run.startedAt, at)) })];
    case 'completed': {
      const duration = isoDuration(elapsed(run.startedAt, at));
      const score =
        entry.scorePercent === null
          ? undefined
          : { scaled: entry.scorePercent / 100, raw: entry.scorePercent, min: 0, max: 100 };
      // A written answer still waiting for its grade leaves the result open: completed, neither passed nor failed.
      if (entry.pendingReviews > 0 || entry.scorePercent === null) {
        return [
          runStatement(settings, run, 'completed', at, { completion: true, duration, ...(score ? { score } : {}) }),
        ];
      }
      const success = entry.scorePercent >= PASS_MARK_PERCENT;
      const result = { completion: true, success, duration, score };
      return [
        runStatement(settings, run, 'completed', at, result),
        runStatement(settings, run, success ? 'passed' : 'failed', at, result),
      ];
    }
    case 'answered': {
      const { step, answer } = entry;
      const extensions: Record<string, string> = { [extensionId(settings, 'analyst-skill')]: step.skill ?? 'response' };
      if (step.technique) extensions[extensionId(settings, 'attack-technique')] = step.technique;
      const scaled = answer.earnedThousandths / 1000;
      return [
        {
          id: randomUUID(),
          actor: actorOf(settings, run),
          verb: verb('answered'),
          object: {
            objectType: 'Activity',
            id: stepActivityId(settings, run.scenarioId, step.id),
            definition: {
              type: INTERACTION,
              name: { 'en-US': step.prompt.slice(0, 500) || step.id },
              interactionType: INTERACTION_TYPES[step.kind] ?? 'other',
              extensions,
            },
          },
          result: {
            // A written answer is decided when an instructor grades it: until then it has no success.
            ...(answer.awaitingReview ? {} : { success: answer.rawThousandths >= 1000 }),
            score: { scaled, raw: scaled, min: 0, max: 1 },
            response: answer.response.slice(0, 4000),
            ...(answer.timeMs !== null ? { duration: isoDuration(answer.timeMs) } : {}),
            extensions: { [extensionId(settings, 'hint-used')]: answer.hintUsed },
          },
          context: contextOf(settings, run, true),
          timestamp: at,
        },
      ];
    }
  }
}
