import { Alert, Switch, Text } from '@mantine/core';
import { useMailPreferences, useSetMailPreferences } from '../api/mail-preferences';

/** "Email me my notifications": every notification of the bell comes by mail too (docs/operations.md, "Mail"). */
export function MailNoticesSwitch() {
  const preferences = useMailPreferences();
  const save = useSetMailPreferences();
  if (!preferences.data) return null;
  const { configured, emailNotices } = preferences.data;
  return (
    <>
      {!configured && (
        <Text size="sm" c="dimmed">
          Mail is not configured on this server yet: an admin must connect a mail server before anything is sent.
        </Text>
      )}
      <Switch
        label="Email me my notifications"
        description="Everything the bell tells you also comes to your email address."
        checked={emailNotices}
        disabled={save.isPending}
        onChange={(event) => save.mutate({ emailNotices: event.currentTarget.checked })}
      />
      {save.isError && (
        <Alert color="red" variant="light" role="alert">
          {save.error.message}
        </Alert>
      )}
    </>
  );
}
