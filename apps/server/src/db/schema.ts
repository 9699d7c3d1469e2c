import type { LoginEventKind } from '@tradecraft/shared';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// Timestamps are ISO-8601 UTC strings; booleans are 0/1 (see the first migration).

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  designation: string;
  role: 'pending' | 'student' | 'admin';
  disabled: number;
  failed_attempts: number;
  /** Set by the third wrong password; the lock lifts by itself at this time (ISO). Null when not locked. */
  locked_until: ColumnType<string | null, string | null | undefined, string | null>;
  photo_file_id: string | null;
  created_at: string;
  updated_at: string;
  /** 1 while the account's password is the one printed at first start: it may only choose a new one. */
  must_change_password: ColumnType<number, number | undefined, number>;
  /** Wrong second steps since the last completed sign-in (docs/security.md); only a completed sign-in resets it. */
  second_step_failures: ColumnType<number, number | undefined, number>;
  /** When the last wrong second step was given (its backoff runs from here). */
  second_step_failed_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
  /** 1 until the person enrols the second factor the platform requires (such a session may only enrol). */
  second_factor_due: ColumnType<number, number | undefined, number>;
  /** When the person last proved who they are in this session (password or second factor); null: not yet. */
  authenticated_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface FilesTable {
  id: string;
  purpose: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  bytes: Buffer;
  created_at: string;
}

export interface LoginEventsTable {
  id: Generated<number>;
  email: string;
  role: string;
  event: LoginEventKind;
  ip: string | null;
  at: string;
}

/** Each email ever seen at sign-in, once (kept by a trigger on login_events; migration 2026_11_26_0001). */
export interface LoginEmailsTable {
  email: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor: string | null;
  action: string;
  details: string | null;
  screen: string | null;
  at: string;
}

/**
 * SQLite only (migration 2026_11_26_0600), one row kept by triggers: the audit log is in time order by key from
 * `in_order_from` on, each entry there no earlier than any before it; `latest_at` is the latest time written.
 */
export interface AuditLogTimeOrderTable {
  in_order_from: number;
  latest_at: string;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  window_ends_at: string;
}

/** A personal API token (only its hash is kept). */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  scope: 'read' | 'read-write';
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A provider's subject linked to an account (single sign-on). */
export interface SsoIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  created_at: string;
  last_sign_in_at: string;
}

/** A started single sign-on, until its callback or ten minutes. */
export interface SsoSignInsTable {
  state: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  expires_at: string;
  /** SHA-256 of the cookie of the browser that started it (docs/security.md, "Single sign-on"). */
  browser_hash: string | null;
}

/** An identity waiting to be linked to the account with its verified email, until its password is given. */
export interface SsoLinkRequestsTable {
  /** SHA-256 of the token in the browser's link cookie. */
  id: string;
  issuer: string;
  subject: string;
  user_id: string;
  return_to: string;
  /** 1 in an admin group, 0 not, null when the provider sent no groups claim. */
  admin_group: number | null;
  created_at: string;
  expires_at: string;
}

export interface NotificationsTable {
  id: Generated<number>;
  recipient_id: string;
  kind: string;
  message: string;
  link: string | null;
  created_at: string;
  read_at: string | null;
  /** What the notification is about (a registration: the registering user's id); null for the rest. */
  subject_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ScenariosTable {
  id: string;
  name: string;
  type: string;
  difficulty: number;
  description: string;
  definition: string;
  step_count: number;
  origin: 'builtin' | 'upload';
  content_hash: string;
  source_file_id: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** The current (newest published) version; null while the scenario has only a draft. */
  current_version_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The scenario's draft, if any (at most one). */
  draft_version_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One version of a scenario (see migration 2026_11_25_0100). */
export interface ScenarioVersionsTable {
  id: string;
  scenario_id: string;
  number: number;
  state: 'draft' | 'published' | 'superseded';
  revision: number;
  /** JSON: the checked definition once published; a draft's as saved. */
  definition: string;
  based_on: number | null;
  summary: string;
  /** SHA-256 of the built-in file the version was loaded from. */
  source_hash: string | null;
  created_by: string | null;
  created_at: string;
  saved_by: string | null;
  saved_at: string;
  published_by: string | null;
  published_at: string | null;
}

export interface RunsTable {
  id: string;
  user_id: string;
  scenario_id: string;
  scenario_name: string;
  step_count: number;
  current_step_id: string;
  current_answered: number;
  last_option_index: number | null;
  /** The score in exact thousandths of a credit. */
  score_thousandths: number;
  /** What the percent divides by, in steps (runPercentBase; an old run keeps its step count). */
  percent_base: number;
  /** Scored step visits answered. */
  played_steps: number;
  /** Scored steps on the scenario's best path when the run started. */
  best_path_steps: number;
  /** Written answers waiting for an instructor's grade. */
  pending_reviews: number;
  /** 0/1: the current visit's hint was opened. */
  hint_opened: number;
  /** 0/1: the current visit had its first submission (a Retry keeps the visit). */
  visit_submitted: number;
  /** The raw credit of the last submission; kinds other than choice branch on it. */
  last_credit_thousandths: number | null;
  status: 'in_progress' | 'completed' | 'ended';
  started_at: string;
  finished_at: string | null;
  updated_at: string;
  /** The scenario version the run plays, pinned when it starts (null only for a run whose scenario row is gone). */
  version_id: string | null;
}

export interface RunDecisionsTable {
  id: Generated<number>;
  run_id: string;
  seq: number;
  step_id: string;
  option_index: number;
  correct: number;
  decision: string;
  feedback: string;
  technique: string | null;
  time_ms: number | null;
  at: string;
  kind: string;
  skill: string;
  /** The credit earned (after any hint charge; 0 for later submissions and unscored steps), in thousandths. */
  credit_thousandths: number;
  first_submission: number;
  scored: number;
  hint_used: number;
  /** The StepResult as JSON; null for decisions recorded before step kinds. */
  result: string | null;
}

export interface StepReviewsTable {
  id: Generated<number>;
  decision_id: number;
  run_id: string;
  user_id: string;
  scenario_id: string;
  step_id: string;
  status: 'pending' | 'graded';
  auto_thousandths: number;
  hint_cost_thousandths: number;
  points: string | null;
  comment: string | null;
  graded_by: string | null;
  submitted_at: string;
  graded_at: string | null;
}

export interface SecondFactorsTable {
  id: string;
  user_id: string;
  kind: 'totp' | 'passkey';
  label: string;
  totp_secret: string | null;
  /** base64url */
  credential_id: string | null;
  /** base64url of the COSE public key */
  public_key: string | null;
  sign_count: ColumnType<number, number | undefined, number>;
  /** JSON array of the authenticator's transports */
  transports: string | null;
  /** The last 30-second step a code was accepted for, so a code works once. */
  last_totp_step: number | null;
  created_at: string;
  last_used_at: string | null;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

export interface PendingSignInsTable {
  id: string;
  user_id: string;
  ip: string | null;
  user_agent: string | null;
  challenge: string | null;
  created_at: string;
  expires_at: string;
}

export interface EnrolmentChallengesTable {
  session_id: string;
  kind: string;
  value: string;
  expires_at: string;
}

/** One attempt of "Practise this step" on a finished run: never part of the run's score. */
export interface RunPracticeTable {
  id: string;
  run_id: string;
  step_id: string;
  started_at: string;
  answered_at: string | null;
  /** The credit the answer would have earned, in thousandths (no hint, first submission). */
  credit_thousandths: number | null;
  decision: string | null;
  feedback: string | null;
  /** The StepResult as JSON. */
  result: string | null;
  time_ms: number | null;
}

/** Counts kept by triggers as rows are written (`login_events`, `login_events:<event>`). */
export interface RowCountsTable {
  name: string;
  value: ColumnType<number | string, number, number>;
}

/** Rows counted per quarter hour (migration 2026_11_26_0400; read through db/event-counts.ts). */
export interface EventCountsTable {
  name: string;
  /** `YYYY-MM-DDTHH:MM`, the minute a multiple of 15 (UTC). */
  slot: string;
  value: ColumnType<number | string, number, number>;
}

export interface Database {
  second_factors: SecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
  pending_sign_ins: PendingSignInsTable;
  enrolment_challenges: EnrolmentChallengesTable;
  users: UsersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  files: FilesTable;
  login_events: LoginEventsTable;
  login_emails: LoginEmailsTable;
  audit_log: AuditLogTable;
  audit_log_time_order: AuditLogTimeOrderTable;
  rate_limits: RateLimitsTable;
  notifications: NotificationsTable;
  scenarios: ScenariosTable;
  scenario_versions: ScenarioVersionsTable;
  runs: RunsTable;
  run_decisions: RunDecisionsTable;
  step_reviews: StepReviewsTable;
  sso_identities: SsoIdentitiesTable;
  sso_sign_ins: SsoSignInsTable;
  sso_link_requests: SsoLinkRequestsTable;
  api_tokens: ApiTokensTable;
  run_practice: RunPracticeTable;
  row_counts: RowCountsTable;
  event_counts: EventCountsTable;
  cohorts: CohortsTable;
  cohort_members: CohortMembersTable;
  learning_paths: LearningPathsTable;
  learning_path_steps: LearningPathStepsTable;
  assignments: AssignmentsTable;
  assignment_notices: AssignmentNoticesTable;
  certificates: CertificatesTable;
  run_notes: RunNotesTable;
  run_pins: RunPinsTable;
  xapi_outbox: XapiOutboxTable;
  mail_outbox: MailOutboxTable;
  mail_preferences: MailPreferencesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Scenario = Selectable<ScenariosTable>;
export type ScenarioVersion = Selectable<ScenarioVersionsTable>;
export type Run = Selectable<RunsTable>;

/** A named group of trainees (training programmes); a trainee may be in several. */
export interface CohortsTable {
  id: string;
  name: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export interface CohortMembersTable {
  cohort_id: string;
  user_id: string;
  added_at: string;
}

/** An ordered list of scenarios; `sequential`: each opens when the one before is passed; `open`: all open. */
export interface LearningPathsTable {
  id: string;
  name: string;
  description: string;
  unlock: 'sequential' | 'open';
  created_by: string | null;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  /** Counts edits: a change names the revision it started from (a stale one is refused). */
  revision: ColumnType<number, number | undefined, number>;
}

export interface LearningPathStepsTable {
  path_id: string;
  position: number;
  scenario_id: string;
}

/** A scenario or a path (one of the two) given to a cohort or one trainee (one of the two). */
export interface AssignmentsTable {
  id: string;
  scenario_id: string | null;
  path_id: string | null;
  cohort_id: string | null;
  user_id: string | null;
  note: string;
  due_at: string | null;
  assigned_by: string | null;
  created_at: string;
  cancelled_at: string | null;
}

/** A notice the periodic check sent (each once per assignment, person and kind). */
export interface AssignmentNoticesTable {
  assignment_id: string;
  user_id: string;
  notice: 'due_soon' | 'overdue' | 'overdue_admin';
  sent_at: string;
}

export interface CertificatesTable {
  id: string;
  /** The public verification code (in /verify/<code>). */
  code: string;
  user_id: string;
  path_id: string;
  holder_name: string;
  path_name: string;
  issued_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
}

/** A run's notebook (features/casefile): private to the run's owner. */
export interface RunNotesTable {
  run_id: string;
  text: string;
  updated_at: string;
}

/** A pin on a run's evidence board: a whole artifact (line 0) or one of its lines (from 1). */
export interface RunPinsTable {
  id: string;
  run_id: string;
  step_id: string;
  artifact_index: number;
  line: number;
  /** The pinned line's text (or the artifact's title), read by the server when it was pinned. */
  quote: string;
  pinned_at: string;
}

/** An xAPI statement on its way to the Learning Record Store (docs/interoperability.md, "xAPI"). */
export interface XapiOutboxTable {
  /** The statement's own id, so a statement sent twice is stored once. */
  id: string;
  run_id: string;
  /** Order within the run, so a batch keeps the run's statements in the order they happened. */
  seq: number;
  /** The statement as JSON, built when it was written. */
  statement: string;
  created_at: string;
  next_attempt_at: string;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  last_error_at: string | null;
  sent_at: string | null;
  rejected_at: string | null;
}

/** A mail on its way to the mail server (docs/operations.md, "Mail"), rendered when it was written. */
export interface MailOutboxTable {
  id: string;
  /** The address it goes to. */
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** Extra headers (List-Unsubscribe) as a JSON object. */
  headers: string;
  created_at: string;
  next_attempt_at: string;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  last_error_at: string | null;
  sent_at: string | null;
  rejected_at: string | null;
}

/** Whether a person gets their notifications by mail too (off when there is no row). */
export interface MailPreferencesTable {
  user_id: string;
  email_notices: number;
  updated_at: string;
}
