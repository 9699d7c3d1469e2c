import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconLink } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { safeReturnPath } from '../../../lib/return-to';
import { useLinkAccount, useSsoLink } from '../api/link-account';
import { AuthFrame } from '../components/auth-frame';

/**
 * After a first single sign-on whose verified email matches an account here: the person proves the account is
 * theirs once (its password, and its second factor if it has one) and the identity is linked to it; from then on
 * the provider signs them in. The request lives in an HttpOnly cookie for ten minutes (docs/security.md).
 */
export default function LinkAccountPage() {
  const link = useSsoLink();
  const linkAccount = useLinkAccount();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  const backToSignIn = (
    <Anchor component={Link} to={paths.login} ta="center" size="sm">
      Back to sign in
    </Anchor>
  );

  if (link.isPending) {
    return (
      <AuthFrame title="Link your account">
        <Loader aria-label="Loading" />
      </AuthFrame>
    );
  }
  if (link.isError) {
    return (
      <AuthFrame title="Link your account">
        <Stack>
          <Alert color="red" icon={<IconAlertCircle />} role="alert">
            {link.error.message}
          </Alert>
          {backToSignIn}
        </Stack>
      </AuthFrame>
    );
  }

  const { email, provider, secondFactor } = link.data;
  const needsCode = secondFactor.length > 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (linkAccount.isPending) return;
    linkAccount.mutate(
      { password, ...(needsCode ? { code } : {}) },
      {
        onSuccess: (result) => {
          const next = result.mustEnrol
            ? `${paths.settings}#second-factor`
            : (safeReturnPath(result.returnTo) ?? paths.redirect);
          void navigate(next, { replace: true });
        },
      },
    );
  };

  return (
    <AuthFrame title="Link your account">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text>
            You signed in with {provider} as <strong>{email}</strong>, and an account with that email already exists
            here. To link {provider} to it, enter the account&apos;s password
            {needsCode ? ' and a code from its second factor' : ''} once. From then on, {provider} signs you in.
          </Text>
          {linkAccount.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {linkAccount.error.message}
            </Alert>
          )}
          <TextInput label="Account" type="email" autoComplete="username" value={email} readOnly />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          {needsCode && (
            <TextInput
              label={
                secondFactor.includes('totp') ? 'Code from your authenticator app, or a recovery code' : 'Recovery code'
              }
              description={
                secondFactor.includes('totp') ? undefined : 'This page takes a recovery code in place of a passkey.'
              }
              autoComplete="one-time-code"
              inputMode={secondFactor.includes('totp') ? 'numeric' : 'text'}
              required
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
          )}
          <Button
            type="submit"
            leftSection={<IconLink size={18} aria-hidden />}
            loading={linkAccount.isPending}
            disabled={!password || (needsCode && !code.trim())}
          >
            Link and sign in
          </Button>
          {backToSignIn}
        </Stack>
      </form>
    </AuthFrame>
  );
}
