import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { LoadingScreen, RequireRole, RoleRedirect } from './guards';
import { paths } from '../lib/paths';
import { followRouteTitles } from './page-titles';

// Every screen is its own chunk, so the sign-in page never carries the admin panel.
type PageModule = { default: ComponentType };
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  { path: paths.home, element: <RoleRedirect /> },
  { path: paths.redirect, element: <RoleRedirect /> },
  { path: paths.login, ...page(() => import('../features/auth/pages/login-page')) },
  { path: paths.register, ...page(() => import('../features/auth/pages/register-page')) },
  { path: paths.choosePassword, ...page(() => import('../features/auth/pages/choose-password-page')) },
  { path: paths.linkAccount, ...page(() => import('../features/auth/pages/link-account-page')) },
  { path: paths.confirmSignIn, ...page(() => import('../features/auth/pages/confirm-sign-in-page')) },
  {
    ...page(() => import('./layout/signed-in-layout')),
    HydrateFallback: LoadingScreen,
    children: [
      {
        // The trainee's assignments come first, above the progress dashboard.
        ...page(() => import('../features/programmes/pages/dashboard-frame')),
        children: [{ path: paths.dashboard, ...page(() => import('../features/progress/pages/dashboard-page')) }],
      },
      { path: paths.scenarios, ...page(() => import('../features/scenarios/pages/scenario-picker-page')) },
      { path: '/simulation/:scenarioId', ...page(() => import('../features/runs/pages/simulation-page')) },
      { path: '/runs/:runId/report', ...page(() => import('../features/progress/pages/run-report-page')) },
      { path: paths.skills, ...page(() => import('../features/progress/pages/skill-map-page')) },
      { path: paths.profile, ...page(() => import('../features/profile/pages/profile-page')) },
      { path: paths.settings, ...page(() => import('../features/settings/pages/settings-page')) },
      { path: paths.help, ...page(() => import('../features/help/pages/help-page')) },
      { path: paths.contact, ...page(() => import('../features/help/pages/contact-page')) },
      { path: '/paths/:pathId', ...page(() => import('../features/programmes/pages/path-page')) },
      {
        element: (
          <RequireRole role="admin">
            <Outlet />
          </RequireRole>
        ),
        children: [
          { path: paths.admin, ...page(() => import('../features/admin/pages/admin-dashboard-page')) },
          { path: paths.pendingUsers, ...page(() => import('../features/users/pages/pending-users-page')) },
          { path: paths.manageUsers, ...page(() => import('../features/users/pages/manage-users-page')) },
          { path: paths.monitoring, ...page(() => import('../features/activity/pages/user-monitoring-page')) },
          { path: paths.auditLog, ...page(() => import('../features/audit/pages/audit-log-page')) },
          { path: paths.scenarioConfig, ...page(() => import('../features/scenarios/pages/scenario-config-page')) },
          { path: paths.trainingProgress, ...page(() => import('../features/progress/pages/training-progress-page')) },
          { path: paths.reviews, ...page(() => import('../features/reviews/pages/review-queue-page')) },
          { path: '/admin/reviews/:reviewId', ...page(() => import('../features/reviews/pages/review-page')) },
          { path: paths.difficulty, ...page(() => import('../features/scenarios/pages/difficulty-page')) },
          { path: paths.apiTokens, ...page(() => import('../features/api-tokens/pages/api-tokens-page')) },
          { path: paths.upload, ...page(() => import('../features/scenarios/pages/upload-page')) },
          { path: paths.newScenario, ...page(() => import('../features/authoring/pages/scenario-editor-page')) },
          {
            path: '/admin/scenarios/:scenarioId/edit',
            ...page(() => import('../features/authoring/pages/scenario-editor-page')),
          },
          { path: paths.underConstruction, ...page(() => import('../features/help/pages/under-construction-page')) },
          { path: paths.cohorts, ...page(() => import('../features/programmes/pages/cohorts-page')) },
          { path: '/admin/cohorts/:cohortId', ...page(() => import('../features/programmes/pages/cohort-page')) },
          { path: paths.learningPaths, ...page(() => import('../features/programmes/pages/paths-admin-page')) },
          { path: paths.itemAnalysis, ...page(() => import('../features/programmes/pages/item-analysis-page')) },
        ],
      },
    ],
  },
  { path: '/verify/:code', ...page(() => import('../features/programmes/pages/verify-page')) },
  { path: '*', ...page(() => import('./not-found-page')) },
];

export function createRouter() {
  const router = createBrowserRouter(routes);
  followRouteTitles(router);
  return router;
}
