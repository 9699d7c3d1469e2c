import { hasRole, type AppNotification } from '@tradecraft/shared';
import {
  ActionIcon,
  Anchor,
  Button,
  Divider,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconBell, IconChecks } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useNotifications } from '../api/get-notifications';
import { readSeenScenarioCount, useScenarioCount, writeSeenScenarioCount } from '../api/get-scenario-count';
import { useLiftLock } from '../api/lift-lock';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { useNotificationStream } from '../api/use-notification-stream';
import { formatDateTime, formatRelative } from '../../../lib/dates';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The top bar's bell: the unread count, and the list with what is unread marked and "Mark all read". Admins hear
 * about registrations live (Server-Sent Events, with the list endpoint as fallback); trainees also see
 * "new scenarios published" when the scenario count passes the one they last saw (local `scenarioCount`).
 */
export function NotificationBell() {
  const { user } = useSession();
  const isStudent = hasRole(user?.role, 'student');
  const stream = useNotificationStream(user !== null);
  const list = useNotifications({ poll: stream === 'down', enabled: stream !== 'connecting' });
  const markRead = useMarkNotificationsRead();

  const scenarioCount = useScenarioCount(isStudent);
  const [seenScenarios, setSeenScenarios] = useState(readSeenScenarioCount);
  const currentScenarios = scenarioCount.data;
  const newScenarios = isStudent && currentScenarios !== undefined ? Math.max(0, currentScenarios - seenScenarios) : 0;

  useEffect(() => {
    // Scenarios were removed: follow the count down quietly, so the next one published is news again.
    if (currentScenarios !== undefined && currentScenarios < seenScenarios) {
      writeSeenScenarioCount(currentScenarios);
      setSeenScenarios(currentScenarios);
    }
  }, [currentScenarios, seenScenarios]);

  const [opened, setOpened] = useState(false);
  const [scenarioNews, setScenarioNews] = useState(0);

  const unread = (list.data?.unread ?? 0) + (newScenarios > 0 ? 1 : 0);

  const open = () => {
    setOpened(true);
    setScenarioNews(newScenarios);
    if (newScenarios > 0 && currentScenarios !== undefined) {
      writeSeenScenarioCount(currentScenarios);
      setSeenScenarios(currentScenarios);
    }
  };

  // What is unread stays marked until "Mark all read", or until it is dealt with (a handled registration).
  const { mutate: markAllRead, isPending: marking } = markRead;
  const serverUnread = list.data?.unread ?? 0;

  const items = list.data?.items ?? [];
  const nothing = items.length === 0 && scenarioNews === 0;

  return (
    <Indicator
      label={unread > 99 ? '99+' : unread}
      size={18}
      color="red"
      disabled={unread === 0}
      offset={6}
      zIndex={2}
      inline
    >
      <Popover
        opened={opened}
        onChange={(next) => {
          if (!next) setOpened(false);
        }}
        position="bottom-end"
        width={320}
        shadow="md"
        trapFocus
        returnFocus
      >
        <Popover.Target>
          <ActionIcon
            variant={opened ? 'light' : 'subtle'}
            color={opened ? 'accent' : 'gray'}
            size="lg"
            aria-label={`Notifications, ${unread} unread`}
            // A controlled Popover leaves opening to its target.
            onClick={() => (opened ? setOpened(false) : open())}
          >
            <IconBell size={20} stroke={1.6} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} aria-label="Notifications">
          <Group justify="space-between" px="md" pt="sm" pb="xs" gap="xs">
            <Title order={2} size="h5" tabIndex={-1} data-autofocus style={{ outline: 'none' }}>
              Notifications
            </Title>
            <Button
              size="compact-xs"
              variant="subtle"
              leftSection={<IconChecks size={14} aria-hidden />}
              disabled={serverUnread === 0}
              loading={marking}
              onClick={() => markAllRead()}
            >
              Mark all read
            </Button>
          </Group>
          <Divider />
          <ScrollArea.Autosize mah={360}>
            <Stack gap={0} py={4}>
              {list.isPending ? (
                <Text size="sm" px="md" py="sm" role="status">
                  Loading...
                </Text>
              ) : list.isError && !list.data ? (
                <Stack gap="xs" px="md" py="sm" align="flex-start">
                  <Text size="sm" role="alert">
                    {list.error.message}
                  </Text>
                  <Button size="compact-sm" variant="default" onClick={() => void list.refetch()}>
                    Retry
                  </Button>
                </Stack>
              ) : nothing ? (
                <Text size="sm" c="dimmed" px="md" py="sm">
                  {hasRole(user?.role, 'admin')
                    ? 'No notifications yet. New registrations show up here.'
                    : 'No notifications yet. Newly published scenarios show up here.'}
                </Text>
              ) : (
                <>
                  {scenarioNews > 0 && (
                    <NotificationItem
                      fresh
                      message={`${plural(scenarioNews, 'new scenario', 'new scenarios')} published.`}
                      link={paths.scenarios}
                      onNavigate={() => setOpened(false)}
                    />
                  )}
                  {items.map((item) => (
                    <NotificationItem
                      key={item.id}
                      fresh={!item.read}
                      message={item.message}
                      link={item.link}
                      at={item.createdAt}
                      onNavigate={() => setOpened(false)}
                      action={lockedUserOf(item) && <LiftLockButton userId={lockedUserOf(item)!} />}
                    />
                  ))}
                </>
              )}
            </Stack>
          </ScrollArea.Autosize>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

function NotificationItem({
  message,
  link,
  at,
  fresh,
  onNavigate,
  action,
}: {
  message: string;
  link: string | null;
  at?: string;
  fresh: boolean;
  onNavigate(): void;
  /** A button that acts from the bell itself (lift a lock). */
  action?: ReactNode;
}) {
  return (
    <Stack
      gap={2}
      px="md"
      py="xs"
      style={{
        borderLeft: `3px solid ${fresh ? 'var(--mantine-primary-color-filled)' : 'transparent'}`,
      }}
    >
      <Text size="sm" fw={fresh ? 600 : 400}>
        {fresh && <VisuallyHidden>New: </VisuallyHidden>}
        {message}
      </Text>
      {(at || link) && (
        <Text size="xs" c="dimmed">
          {at && (
            <time dateTime={at} title={formatDateTime(at)}>
              {formatRelative(at)}
            </time>
          )}
          {at && link && ' · '}
          {link && (
            <Anchor component={Link} to={link} size="xs" onClick={onNavigate}>
              Open
            </Anchor>
          )}
        </Text>
      )}
      {action}
    </Stack>
  );
}

/** The locked account of an 'account-locked' notification (its link names it), else undefined. */
function lockedUserOf(item: AppNotification): string | undefined {
  if (item.kind !== 'account-locked' || !item.link) return undefined;
  return new URL(item.link, window.location.origin).searchParams.get('unlock') ?? undefined;
}

function LiftLockButton({ userId }: { userId: string }) {
  const lift = useLiftLock();
  if (lift.isSuccess) {
    return (
      <Text size="xs" c="green" role="status">
        Lock lifted.
      </Text>
    );
  }
  return (
    <Group gap="xs">
      <Button size="compact-xs" variant="light" loading={lift.isPending} onClick={() => lift.mutate(userId)}>
        Lift lock now
      </Button>
      {lift.error && (
        <Text size="xs" c="red" role="alert">
          {lift.error.message}
        </Text>
      )}
    </Group>
  );
}
