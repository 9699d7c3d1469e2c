import { passwordChangeInputSchema } from '@tradecraft/shared';
import { Alert, Button, Checkbox, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useSession } from '../../../lib/session';
import { useFormFields } from '../../../ui/use-form-fields';
import { NewPasswordFields } from '../../../ui/new-password-fields';
import { useChangePassword } from '../api/change-password';

/** The dialog closes 1.5 seconds after a successful change. */
export const CLOSE_AFTER_SUCCESS_MS = 1500;
export const PASSWORD_UPDATED_MESSAGE = 'Password updated successfully.';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

function ResetPasswordForm({ onClose }: { onClose: () => void }) {
  const { values, fieldErrors, set, validate } = useFormFields(EMPTY);
  const change = useChangePassword();
  // Only admins hold API tokens; for them the change revokes the tokens unless they keep them.
  const isAdmin = useSession().user?.role === 'admin';
  const [revokeApiTokens, setRevokeApiTokens] = useState(true);

  useEffect(() => {
    if (!change.isSuccess) return;
    const timer = window.setTimeout(onClose, CLOSE_AFTER_SUCCESS_MS);
    return () => window.clearTimeout(timer);
  }, [change.isSuccess, onClose]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending || change.isSuccess) return;
    change.reset();
    const input = validate(passwordChangeInputSchema);
    if (!input) return;
    change.mutate({ ...input, revokeApiTokens: isAdmin ? revokeApiTokens : true });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          Changing your password signs you out everywhere else; this browser stays signed in.
        </Text>
        {change.error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert">
            {change.error.message}
          </Alert>
        )}
        {change.isSuccess && (
          <Alert color="green" icon={<IconCircleCheck />} role="status">
            {PASSWORD_UPDATED_MESSAGE}
          </Alert>
        )}
        <PasswordInput
          label="Current Password"
          required
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set('currentPassword')}
          error={fieldErrors.currentPassword}
          data-autofocus
        />
        <NewPasswordFields values={values} errors={fieldErrors} set={set} />
        {isAdmin && (
          <Checkbox
            label="Also revoke my API tokens"
            description="Scripts that use them stop working until you give them new tokens."
            checked={revokeApiTokens}
            onChange={(event) => setRevokeApiTokens(event.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending} disabled={change.isSuccess}>
            Update Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Current, New and Confirm, with the strength bar; the form is fresh each time the dialog opens. */
export function ResetPasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Reset Password" centered>
      {opened && <ResetPasswordForm onClose={onClose} />}
    </Modal>
  );
}
