import { reauthenticateInputSchema } from '@tradecraft/shared';
import { Alert, Anchor, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconShieldLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, setReauthenticationHandler } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session';
import { useAccountSecurity } from '../api/security';

type Way = 'password' | 'code';

/**
 * Changes to account security need the password or a second factor given in the last ten minutes
 * (docs/security.md, "Re-authentication"). While Settings is shown, the server's "confirm it is you" opens this
 * dialog; once the server takes the password or code, the change that asked is sent again.
 */
export function ReauthenticateDialog() {
  const [opened, setOpened] = useState(false);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);
  const security = useAccountSecurity();
  const hasApp = security.data?.factors.some((factor) => factor.kind === 'totp') ?? false;
  const [way, setWay] = useState<Way>('password');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const queryClient = useQueryClient();

  useEffect(
    () =>
      setReauthenticationHandler(
        () =>
          new Promise<boolean>((resolve) => {
            resolver.current?.(false);
            resolver.current = resolve;
            setWay('password');
            setValue('');
            setError(null);
            setOpened(true);
          }),
      ),
    [],
  );

  const finish = (confirmed: boolean) => {
    resolver.current?.(confirmed);
    resolver.current = null;
    setOpened(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const input = way === 'password' ? { password: value } : { code: value.trim() };
    const parsed = reauthenticateInputSchema.safeParse(input);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check what you typed.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await api.post<{ ok: true }>('/api/auth/reauthenticate', parsed.data);
      finish(true);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Something went wrong. Please try again.');
      // Too many wrong tries ended the session: the app's guard takes the person to sign in again.
      if (caught instanceof ApiError && caught.status === 401) {
        finish(false);
        await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      }
    } finally {
      setPending(false);
    }
  };

  const switchWay = () => {
    setWay(way === 'password' ? 'code' : 'password');
    setValue('');
    setError(null);
  };

  return (
    <Modal opened={opened} onClose={() => finish(false)} title="Confirm it is you" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <IconShieldLock size={22} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="sm">
              Changes to your sign-in security need your {way === 'password' ? 'password' : 'authenticator code'} again
              when you last gave it more than ten minutes ago.
            </Text>
          </Group>
          {error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {error}
            </Alert>
          )}
          {way === 'password' ? (
            <PasswordInput
              label="Password"
              required
              autoComplete="current-password"
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              data-autofocus
            />
          ) : (
            <TextInput
              label="Code from your authenticator app"
              required
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              data-autofocus
            />
          )}
          {hasApp && (
            <Anchor component="button" type="button" size="sm" onClick={switchWay} ta="left">
              {way === 'password' ? 'Use a code from your authenticator app instead' : 'Use your password instead'}
            </Anchor>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => finish(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Confirm
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
