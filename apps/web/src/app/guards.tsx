import { hasRole, type Role } from '@tradecraft/shared';
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useDeferredValue, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session';
import { paths } from '../lib/paths';
import { loginPathReturningTo } from '../lib/return-to';

export function LoadingScreen() {
  return (
    <Center h="100dvh" role="status">
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text>Loading...</Text>
      </Stack>
    </Center>
  );
}

/** Draws its children only for a signed-in user; the server enforces the same rule on every request. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading, error, refetch } = useSession();
  const location = useLocation();
  // Once the session is known the whole frame and page are drawn: as a deferred render React does it in slices
  // between which the browser stays responsive, instead of one long task (the loading screen stays meanwhile).
  const loading = useDeferredValue(isLoading);
  if (loading) return <LoadingScreen />;
  if (error && !user) {
    return (
      <Center h="100dvh">
        <Stack align="center">
          <Text role="alert">{error.message}</Text>
          <Button onClick={() => void refetch()}>Retry</Button>
        </Stack>
      </Center>
    );
  }
  // The sign-in page brings them back here (a shared report link, the skill map).
  if (!user) return <Navigate to={loginPathReturningTo(location.pathname + location.search + location.hash)} replace />;
  // The printed first-start password opens nothing else (the server answers 403 meanwhile).
  if (user.mustChangePassword) return <Navigate to={paths.choosePassword} replace />;
  return children;
}

/** Sends a user without the role to the dashboard (role names compare case-insensitively). */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const { user } = useSession();
  if (!hasRole(user?.role, role)) return <Navigate to={paths.dashboard} replace />;
  return children;
}

/** /redirect and /: admins to /admin, students to /dashboard, anyone else to /login. */
export function RoleRedirect() {
  const { user, isLoading } = useSession();
  if (isLoading) return <LoadingScreen />;
  if (user?.mustChangePassword) return <Navigate to={paths.choosePassword} replace />;
  if (hasRole(user?.role, 'admin')) return <Navigate to={paths.admin} replace />;
  if (hasRole(user?.role, 'student')) return <Navigate to={paths.dashboard} replace />;
  return <Navigate to={paths.login} replace />;
}
