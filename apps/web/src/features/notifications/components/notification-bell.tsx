import { ActionIcon, Popover, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';

/** The top bar's bell; the administration issue fills it with live notifications. */
export function NotificationBell() {
  return (
    <Popover position="bottom-end" width={280} shadow="md">
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Notifications">
          <IconBell size={20} stroke={1.6} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm" c="dimmed">
          No notifications.
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}
