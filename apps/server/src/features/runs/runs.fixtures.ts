import { createHash, randomBytes } from 'node:crypto';
import { checkScenario, formatProblem, type ScenarioDefinition, type ScenarioFile } from '@tradecraft/shared';
import { nowIso } from '../../clock';
import type { DbOrTrx } from '../../db/database';

/**
 * A small scenario for the run engine's tests, with every flow the engine must handle:
 * - triage: option 1 (correct) branches to the named step `pivot`; option 0 is a Retry (`next_step: null`);
 *   option 2 falls through to the following step `detour`. Technique T1566.001, a hint, an email.
 * - detour: no technique; falls through to `pivot` whatever the answer. A log.
 * - pivot: technique T1557; a feed with indicators and a forum post.
 * - report: the last step (technique T1566.001 again), so any answer finishes the run.
 * Every feedback text starts with FEEDBACK- so a test can look for it in what a trainee receives.
 */
export const FIXTURE_SCENARIO: ScenarioFile = {
  name: 'Fixture: voicemail lure',
  type: 'Phishing',
  difficulty: 2,
  description: 'A reported voicemail email leads to a stolen session.',
  steps: [
    {
      id: 'triage',
      title: 'A clerk reports a voicemail email',
      description: 'The clerk opened the attachment and typed her password. What now?',
      artifacts: [
        {
          kind: 'email',
          title: 'Reported message',
          content:
            'From: Voice Service <noreply@voice.example>\nTo: dana@corp.example\nSubject: 1 new voicemail\n\nOpen the attachment.',
        },
      ],
      hint: 'Think about everyone who got it, not only the clerk.',
      mitre_attack: 'T1566.001',
      options: [
        {
          text: 'Open the attachment on your own workstation',
          next_step: null,
          feedback: 'FEEDBACK-triage-retry: use a sandbox.',
        },
        {
          text: 'Purge the message everywhere and scope the recipients',
          next_step: 'pivot',
          feedback: 'FEEDBACK-triage-correct: scope first.',
        },
        { text: 'Block the sender and wait for more reports', feedback: 'FEEDBACK-triage-fallthrough: not enough.' },
      ],
      correct_option: 1,
    },
    {
      id: 'detour',
      title: 'The proxy log',
      description: 'Who else reached the relay host?',
      artifacts: [
        {
          kind: 'log',
          title: 'Web proxy',
          content: '07:51:48Z user=dana GET relay.example/ 200\n07:52:10Z user=dana POST relay.example/login 302',
        },
      ],
      options: [
        { text: 'Search the proxy log for every user who reached the host' },
        {
          text: 'Reimage the laptop and close the case',
          feedback: 'FEEDBACK-detour-wrong: the problem is in the cloud.',
        },
      ],
      correct_option: 0,
    },
    {
      id: 'pivot',
      title: 'The sandbox report',
      description: 'How do you classify the page?',
      artifacts: [
        {
          kind: 'feed',
          title: 'Phishing feed entry',
          source: 'Commercial feed',
          content: 'Relay hosts imitating a sign-in page.',
          indicators: [{ type: 'domain', value: 'relay[.]example', context: 'Relay host' }],
        },
        {
          kind: 'forum-post',
          title: 'Kit for sale',
          source: 'ledgerfox',
          date: '2025-03-10',
          content: 'Selling a relay kit.',
        },
      ],
      mitre_attack: 'T1557',
      options: [
        { text: 'A simple fake login page', feedback: 'FEEDBACK-pivot-wrong: it relays the real page.' },
        { text: 'An adversary-in-the-middle relay', feedback: 'FEEDBACK-pivot-correct: it steals the session.' },
      ],
      correct_option: 1,
    },
    {
      id: 'report',
      title: 'Close the case',
      description: 'What goes in the report?',
      mitre_attack: 'T1566.001',
      options: [
        {
          text: 'The timeline, the indicators and the lessons learned',
          feedback: 'FEEDBACK-report-correct: complete.',
        },
        { text: 'Nothing, the case is closed', feedback: 'FEEDBACK-report-wrong: write it down.' },
      ],
      correct_option: 0,
    },
  ],
};

/** Every feedback text of the fixture (none may reach a trainee before they answer). */
export const FIXTURE_FEEDBACK: string[] = FIXTURE_SCENARIO.steps.flatMap((step) =>
  ('options' in step ? step.options : []).flatMap((option) =>
    typeof option === 'object' && option.feedback ? [option.feedback] : [],
  ),
);

/** The fixture, checked and normalised exactly as the scenarios feature stores a definition. */
export function checkedScenario(file: ScenarioFile = FIXTURE_SCENARIO): ScenarioDefinition {
  const result = checkScenario(file);
  if (!result.ok) throw new Error(`fixture scenario is invalid:\n${result.problems.map(formatProblem).join('\n')}`);
  return result.scenario;
}

/** Puts a scenario straight into the table (the stored contract: definition JSON, step_count, deleted_at). */
export async function insertScenario(
  db: DbOrTrx,
  options: { id?: string; file?: ScenarioFile; deleted?: boolean } = {},
): Promise<{ id: string; definition: ScenarioDefinition }> {
  const definition = checkedScenario(options.file);
  const id = options.id ?? `fixture-${randomBytes(4).toString('hex')}`;
  const json = JSON.stringify({ ...definition, id });
  const now = nowIso();
  await db
    .insertInto('scenarios')
    .values({
      id,
      name: definition.name,
      type: definition.type,
      difficulty: definition.difficulty,
      description: definition.description,
      definition: json,
      step_count: definition.steps.length,
      origin: 'upload',
      content_hash: createHash('sha256').update(json).digest('hex'),
      source_file_id: null,
      created_at: now,
      updated_at: now,
      deleted_at: options.deleted ? now : null,
      current_version_id: `${id}@v1`,
    })
    .execute();
  // Version 1, published, as migration 2026_11_25_0100 makes one for a scenario that existed before versions.
  await db
    .insertInto('scenario_versions')
    .values({
      id: `${id}@v1`,
      scenario_id: id,
      number: 1,
      state: 'published',
      revision: 1,
      definition: json,
      based_on: null,
      summary: 'First version',
      source_hash: null,
      created_by: null,
      created_at: now,
      saved_by: null,
      saved_at: now,
      published_by: null,
      published_at: now,
    })
    .execute();
  return { id, definition };
}

/** Soft-deletes a scenario as the scenarios feature does. */
export async function deleteScenario(db: DbOrTrx, id: string): Promise<void> {
  await db.updateTable('scenarios').set({ deleted_at: nowIso() }).where('id', '=', id).execute();
}
