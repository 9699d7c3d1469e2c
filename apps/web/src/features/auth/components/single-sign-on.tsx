import { SSO_FAILURES, type SsoFailure } from '@tradecraft/shared';
import { Alert, Button, Divider } from '@mantine/core';
import { IconAlertCircle, IconLogin2 } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { withQuery } from '../../../lib/api-client';
import { useSignInMethods } from '../api/get-sign-in-methods';

const isFailure = (value: string | null): value is SsoFailure => value !== null && value in SSO_FAILURES;

/**
 * "Sign in with <provider>" when single sign-on is configured, and why the last single sign-on came back
 * without a session (`?sso=<reason>`). The button is a plain link: the server sends the browser on to the provider.
 */
export function SingleSignOn({ returnTo }: { returnTo: string | undefined }) {
  const { data: methods } = useSignInMethods();
  const [params] = useSearchParams();
  const failure = params.get('sso');
  return (
    <>
      {isFailure(failure) && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {SSO_FAILURES[failure]}
        </Alert>
      )}
      {methods?.sso && (
        <>
          <Button
            component="a"
            href={withQuery('/api/auth/oidc/start', { returnTo })}
            variant="default"
            leftSection={<IconLogin2 size={18} aria-hidden />}
          >
            Sign in with {methods.sso.displayName}
          </Button>
          {methods.password && <Divider label="or with your password" labelPosition="center" />}
        </>
      )}
    </>
  );
}

/** Whether the password form should show: hidden only when the server says password sign-in is off. */
export function usePasswordSignIn(): boolean {
  return useSignInMethods().data?.password !== false;
}
