import { AUTH_MESSAGES } from '@tradecraft/shared';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { RETURN_PARAM, safeReturnPath } from '../../../lib/return-to';
import { useSession } from '../../../lib/session';
import { useLogin } from '../api/login';
import { AuthFrame } from '../components/auth-frame';
import { SingleSignOn, usePasswordSignIn } from '../components/single-sign-on';
import { SecondStepForm } from '../components/second-step-form';

interface LoginLocationState {
  registered?: boolean;
}

export default function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const navigate = useNavigate();
  const location = useLocation();
  const { user } = useSession();
  const [searchParams] = useSearchParams();
  const registered = (location.state as LoginLocationState | null)?.registered === true;
  // Where the visitor was going before signing in; only a path of this site, else their home page.
  const returnPath = safeReturnPath(searchParams.get(RETURN_PARAM));
  const destination = returnPath ?? paths.redirect;
  const passwordSignIn = usePasswordSignIn();

  if (user && !login.isPending && !login.isSuccess) return <Navigate to={destination} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(
      { email, password },
      {
        onSuccess: (result) => {
          if (result.mustEnrol) void navigate(`${paths.settings}#second-factor`, { replace: true });
          else if (result.user) void navigate(destination, { replace: true });
        },
      },
    );
  };

  if (login.data?.secondStep) {
    return (
      <AuthFrame title="Confirm it's you">
        <SecondStepForm
          methods={login.data.secondStep.methods}
          onSignedIn={() => void navigate(destination, { replace: true })}
        />
      </AuthFrame>
    );
  }

  if (!passwordSignIn) {
    return (
      <AuthFrame title="Sign in">
        <Stack>
          <SingleSignOn returnTo={returnPath ?? undefined} />
        </Stack>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame title="Sign in">
      <form onSubmit={submit} noValidate>
        <Stack>
          <SingleSignOn returnTo={returnPath ?? undefined} />
          {registered && !login.error && (
            <Alert color="green" icon={<IconCircleCheck />} role="status">
              {AUTH_MESSAGES.registrationSucceeded}
            </Alert>
          )}
          {login.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {login.error.message}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Button type="submit" loading={login.isPending} disabled={!email || !password}>
            Login
          </Button>
          <Text size="sm" ta="center">
            New here?{' '}
            <Anchor component={Link} to={paths.register}>
              Create an account
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthFrame>
  );
}
