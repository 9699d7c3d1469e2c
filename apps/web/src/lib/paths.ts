/** Every route of the product in one place (the screens, the report and the skill map). */
export const paths = {
  home: '/',
  redirect: '/redirect',
  login: '/login',
  register: '/register',
  choosePassword: '/choose-password',
  /** After a first single sign-on to an existing account: its password, once (server: features/sso). */
  linkAccount: '/link-account',
  /** After a single sign-on to an account with a second factor: the second step. */
  confirmSignIn: '/confirm-sign-in',
  admin: '/admin',
  pendingUsers: '/admin/pending-users',
  manageUsers: '/admin/users',
  monitoring: '/admin/monitoring',
  auditLog: '/admin/audit-log',
  scenarioConfig: '/admin/scenario-config',
  trainingProgress: '/admin/training-progress',
  reviews: '/admin/reviews',
  review: (reviewId: number) => `/admin/reviews/${reviewId}`,
  difficulty: '/admin/difficulty',
  apiTokens: '/admin/api-tokens',
  upload: '/upload',
  underConstruction: '/underconstruction',
  dashboard: '/dashboard',
  scenarios: '/scenarios',
  /**
   * The player: `simId` opens a run; `resume` with it puts an ended run back in progress; `startOver` (without
   * `simId`) ends the scenario's unfinished run, kept in history, and starts a new one.
   */
  simulation: (scenarioId: string, query?: { simId?: string; resume?: boolean; startOver?: boolean }) => {
    const params = new URLSearchParams();
    if (query?.simId) params.set('simId', query.simId);
    if (query?.resume) params.set('resume', '1');
    if (query?.startOver) params.set('startOver', '1');
    const search = params.toString();
    return `/simulation/${encodeURIComponent(scenarioId)}${search ? `?${search}` : ''}`;
  },
  runReport: (runId: string) => `/runs/${encodeURIComponent(runId)}/report`,
  skills: '/skills',
  profile: '/profile',
  settings: '/settings',
  help: '/help',
  contact: '/contact',
  cohorts: '/admin/cohorts',
  cohort: (cohortId: string) => `/admin/cohorts/${encodeURIComponent(cohortId)}`,
  learningPaths: '/admin/paths',
  itemAnalysis: '/admin/item-analysis',
  learningPath: (pathId: string) => `/paths/${encodeURIComponent(pathId)}`,
  verify: (code: string) => `/verify/${encodeURIComponent(code)}`,
  newScenario: '/admin/scenarios/new',
  editScenario: (scenarioId: string) => `/admin/scenarios/${encodeURIComponent(scenarioId)}/edit`,
} as const;
