import { passwordChangeInputSchema } from '@tradecraft/shared';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconKey } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { api } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { NewPasswordFields } from '../../../ui/new-password-fields';
import { useFormFields } from '../../../ui/use-form-fields';
import { useChoosePassword } from '../api/choose-password';
import { AuthFrame } from '../components/auth-frame';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * The only page an account signed in with the password printed at first start can open: until it chooses its
 * own, the server answers every other request with 403. Once saved, the printed password no longer signs in.
 */
export default function ChoosePasswordPage() {
  const { user, isLoading } = useSession();
  const { values, fieldErrors, set, validate } = useFormFields(EMPTY);
  const choose = useChoosePassword();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  if (isLoading) return null;
  if (!user) return <Navigate to={paths.login} replace />;
  if (!user.mustChangePassword) return <Navigate to={paths.redirect} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choose.isPending) return;
    choose.reset();
    const input = validate(passwordChangeInputSchema);
    if (!input) return;
    choose.mutate(input, { onSuccess: () => void navigate(paths.redirect, { replace: true }) });
  };

  const signOut = async () => {
    await api.post('/api/auth/logout').catch(() => undefined);
    queryClient.clear();
    void navigate(paths.login, { replace: true });
  };

  return (
    <AuthFrame title="Choose your password">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text>
            You signed in as <strong>{user.email}</strong> with the password printed when Tradecraft first started. That
            password is for one use: choose your own to continue. The printed one stops working once you save.
          </Text>
          {choose.error && (
            <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
              {choose.error.message}
            </Alert>
          )}
          <PasswordInput
            label="Printed password"
            description="The one from the server's console"
            required
            autoComplete="current-password"
            value={values.currentPassword}
            onChange={set('currentPassword')}
            error={fieldErrors.currentPassword}
          />
          <NewPasswordFields
            values={values}
            errors={fieldErrors}
            set={set}
            labels={{ newPassword: 'New password', confirmPassword: 'Confirm new password' }}
          />
          <Button type="submit" loading={choose.isPending} leftSection={<IconKey size={18} aria-hidden />}>
            Save password and continue
          </Button>
          <Text size="sm" ta="center">
            Not now?{' '}
            <Anchor component="button" type="button" onClick={() => void signOut()}>
              Sign out
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthFrame>
  );
}
