import { updateUserInputSchema, type ManagedUser, type UpdateUserInput } from '@tradecraft/shared';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useEndUserSessions } from '../api/end-user-sessions';
import { useUpdateUser } from '../api/update-user';
import { formatTime } from '../../../lib/dates';

interface FormValues {
  firstName: string;
  lastName: string;
  designation: string;
  role: 'student' | 'admin';
  disabled: boolean;
}

type Field = keyof FormValues;

const lockEndText = (iso: string) => formatTime(iso);

const valuesOf = (user: ManagedUser): FormValues => ({
  firstName: user.firstName,
  lastName: user.lastName,
  designation: user.designation,
  role: user.role === 'admin' ? 'admin' : 'student',
  disabled: user.disabled,
});

/** Only what changed is sent, so the audit entry names exactly the edit. */
function changesBetween(before: FormValues, after: FormValues): UpdateUserInput {
  const changes: UpdateUserInput = {};
  if (after.firstName.trim() !== before.firstName) changes.firstName = after.firstName;
  if (after.lastName.trim() !== before.lastName) changes.lastName = after.lastName;
  if (after.designation.trim() !== before.designation) changes.designation = after.designation;
  if (after.role !== before.role) changes.role = after.role;
  if (after.disabled !== before.disabled) changes.disabled = after.disabled;
  return changes;
}

export interface EditUserDialogProps {
  /** The user being edited; null when the dialog is closed. */
  user: ManagedUser | null;
  /** The signed-in admin: they cannot demote or disable themself (the server says so too). */
  currentUserId: string | undefined;
  onClose(): void;
}

export function EditUserDialog({ user, currentUserId, onClose }: EditUserDialogProps) {
  return (
    <Modal opened={user !== null} onClose={onClose} title="Edit user" centered>
      {/* Keyed by user, so the form starts from that user's values each time it opens. */}
      {user && <EditUserForm key={user.id} user={user} isSelf={user.id === currentUserId} onClose={onClose} />}
    </Modal>
  );
}

function EditUserForm({ user, isSelf, onClose }: { user: ManagedUser; isSelf: boolean; onClose(): void }) {
  const initial = valuesOf(user);
  const [values, setValues] = useState<FormValues>(initial);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const update = useUpdateUser();

  const set = <K extends Field>(field: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
    update.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes = changesBetween(initial, values);
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    const parsed = updateUserInputSchema.safeParse(changes);
    if (!parsed.success) {
      const errors: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field | undefined;
        if (field) errors[field] ??= issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    update.mutate(
      { id: user.id, changes: parsed.data },
      {
        onSuccess: ({ user: saved }) => {
          notifications.show({ message: `Saved ${saved.email}.`, color: 'green' });
          onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {user.email}
        </Text>
        {update.error && (
          <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
            {update.error.message}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="First name"
            required
            value={values.firstName}
            onChange={(event) => set('firstName', event.currentTarget.value)}
            error={fieldErrors.firstName}
            data-autofocus
          />
          <TextInput
            label="Last name"
            required
            value={values.lastName}
            onChange={(event) => set('lastName', event.currentTarget.value)}
            error={fieldErrors.lastName}
          />
        </SimpleGrid>
        <TextInput
          label="Designation"
          value={values.designation}
          onChange={(event) => set('designation', event.currentTarget.value)}
          error={fieldErrors.designation}
        />
        <Select
          label="Role"
          data={[
            { value: 'student', label: 'Student' },
            { value: 'admin', label: 'Admin' },
          ]}
          value={values.role}
          allowDeselect={false}
          onChange={(value) => value && set('role', value as FormValues['role'])}
          description={isSelf ? 'You cannot remove your own admin role.' : undefined}
          disabled={isSelf}
        />
        <Switch
          label="Disabled"
          description={
            isSelf
              ? 'You cannot disable your own account.'
              : user.lockedUntil
                ? `Locked after three wrong passwords until ${lockEndText(user.lockedUntil)}; switch this off to lift the lock now.`
                : 'A disabled user cannot sign in; disabling ends their sessions.'
          }
          checked={values.disabled}
          onChange={(event) => set('disabled', event.currentTarget.checked)}
          disabled={isSelf}
        />
        <EndSessionsButton userId={user.id} name={`${user.firstName} ${user.lastName}`} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Signs the user out of every browser at once (they may sign in again). */
function EndSessionsButton({ userId, name }: { userId: string; name: string }) {
  const end = useEndUserSessions();
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Text size="sm" c="dimmed">
        {end.isSuccess ? `${name} is signed out everywhere.` : 'Sign this user out of every browser.'}
      </Text>
      <Button variant="light" color="red" size="xs" loading={end.isPending} onClick={() => end.mutate(userId)}>
        End all sessions
      </Button>
    </Group>
  );
}
