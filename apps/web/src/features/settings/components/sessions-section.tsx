import { Badge, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSession } from '../../../lib/session';
import { IconDevices } from '@tabler/icons-react';
import { useActiveSessions, useEndOtherSessions, useEndSession } from '../api/security';
import { formatDateTime, formatRelative } from '../../../lib/dates';

/** Settings › Sessions: where the person is signed in; they end any other one, or all of them. */
export function SessionsSection() {
  const sessions = useActiveSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  // Only admins hold API tokens; for them ending the other sessions revokes the tokens unless they keep them.
  const isAdmin = useSession().user?.role === 'admin';
  const [revokeApiTokens, setRevokeApiTokens] = useState(true);
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current).length;
  return (
    <Stack gap="sm">
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Active sessions">
        {list.map((session) => (
          <Group key={session.id} component="li" justify="space-between" wrap="wrap" gap="xs">
            <Group gap="sm" wrap="nowrap">
              <IconDevices size={20} aria-hidden style={{ flexShrink: 0 }} />
              <div>
                <Text fw={500}>
                  {session.device}{' '}
                  {session.current && (
                    <Badge size="sm" color="green" variant="light">
                      This browser
                    </Badge>
                  )}
                </Text>
                <Text size="xs" c="dimmed">
                  {session.ip ?? 'Unknown address'} · started{' '}
                  <time dateTime={session.startedAt}>{formatDateTime(session.startedAt)}</time> · last seen{' '}
                  <time dateTime={session.lastSeenAt} title={formatDateTime(session.lastSeenAt)}>
                    {formatRelative(session.lastSeenAt)}
                  </time>
                </Text>
              </div>
            </Group>
            {!session.current && (
              <Button
                variant="subtle"
                color="red"
                size="xs"
                onClick={() => endOne.mutate(session.id)}
                aria-label={`End session: ${session.device}, last seen ${formatRelative(session.lastSeenAt)}`}
              >
                End
              </Button>
            )}
          </Group>
        ))}
      </Stack>
      {endOthers.error && (
        <Text size="sm" c="red" role="alert">
          {endOthers.error.message}
        </Text>
      )}
      {endOthers.isSuccess && (
        <Text size="sm" role="status">
          {endOthers.data.revokedApiTokens > 0
            ? `Other sessions ended; ${endOthers.data.revokedApiTokens} API token${endOthers.data.revokedApiTokens === 1 ? '' : 's'} revoked.`
            : 'Other sessions ended.'}
        </Text>
      )}
      <Group gap="md" wrap="wrap">
        <Button
          variant="default"
          disabled={others === 0 && !(isAdmin && revokeApiTokens)}
          loading={endOthers.isPending}
          onClick={() => endOthers.mutate({ revokeApiTokens: isAdmin ? revokeApiTokens : true })}
        >
          {isAdmin && revokeApiTokens ? 'End all other sessions and revoke API tokens' : 'End all other sessions'}
        </Button>
        {isAdmin && (
          <Checkbox
            label="Also revoke my API tokens"
            checked={revokeApiTokens}
            onChange={(event) => setRevokeApiTokens(event.currentTarget.checked)}
          />
        )}
      </Group>
    </Stack>
  );
}
