import type { RouteObject } from 'react-router';
import { paths } from '../lib/paths';
import { pageTitle } from '../lib/page-title';

/**
 * Each route's page title (the screen's name in the navigation), by the route's `path` in router.tsx (a test
 * checks that every route has one). Pages
 * that show one thing (a scenario, a report) name it themselves with usePageTitle once it has loaded. Null:
 * the route only sends the visitor on, and the product's name stands.
 */
export const ROUTE_TITLES: Record<string, string | null> = {
  [paths.home]: null,
  [paths.redirect]: null,
  [paths.login]: 'Sign in',
  [paths.register]: 'Create your account',
  [paths.choosePassword]: 'Choose your password',
  [paths.linkAccount]: 'Link your account',
  [paths.confirmSignIn]: "Confirm it's you",
  [paths.dashboard]: 'Dashboard',
  [paths.scenarios]: 'Scenarios',
  '/simulation/:scenarioId': 'Simulation',
  '/runs/:runId/report': 'After-action report',
  [paths.skills]: 'ATT&CK Skill Map',
  [paths.profile]: 'My Profile',
  [paths.settings]: 'Settings',
  [paths.help]: 'Help & FAQ',
  [paths.contact]: 'Contact Us',
  [paths.admin]: 'Admin Panel',
  [paths.pendingUsers]: 'Pending Approvals',
  [paths.manageUsers]: 'Manage Users',
  [paths.monitoring]: 'User Monitoring',
  [paths.auditLog]: 'Audit Log',
  [paths.scenarioConfig]: 'Scenario Configurator',
  [paths.trainingProgress]: 'Training Progress',
  [paths.reviews]: 'Review Queue',
  '/admin/reviews/:reviewId': 'Review',
  [paths.difficulty]: 'Difficulty Adjuster',
  [paths.upload]: 'Upload Scenario',
  [paths.newScenario]: 'New Scenario',
  '/admin/scenarios/:scenarioId/edit': 'Scenario Editor',
  [paths.apiTokens]: 'API Tokens',
  [paths.underConstruction]: 'Under Construction',
  '/paths/:pathId': 'Learning path',
  [paths.cohorts]: 'Cohorts',
  '/admin/cohorts/:cohortId': 'Cohort',
  [paths.learningPaths]: 'Learning Paths',
  [paths.itemAnalysis]: 'Item Analysis',
  '/verify/:code': 'Certificate verification',
  '*': 'Page Not Found',
};

/** The title of the deepest matched route that has a path. */
export function routeTitle(matches: readonly { route: Pick<RouteObject, 'path'> }[]): string {
  const path = [...matches].reverse().find((match) => match.route.path !== undefined)?.route.path;
  return pageTitle(path === undefined ? null : ROUTE_TITLES[path]);
}

interface TitledRouter {
  state: { location: { pathname: string }; matches: readonly { route: Pick<RouteObject, 'path'> }[] };
  subscribe: (listener: (state: TitledRouter['state']) => void) => unknown;
}

/**
 * Sets the tab's title on every change of page. Only a new pathname resets it: a page that changes its own
 * query string (the picker's filters, a run's id) keeps the title it gave itself. Listeners run before React
 * draws the new page, so a page's usePageTitle always has the last word.
 */
export function followRouteTitles(router: TitledRouter): void {
  let shownPath: string | null = null;
  const apply = (state: TitledRouter['state']) => {
    if (state.location.pathname === shownPath) return;
    shownPath = state.location.pathname;
    document.title = routeTitle(state.matches);
  };
  apply(router.state);
  router.subscribe(apply);
}
