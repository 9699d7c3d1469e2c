import { AUTH_MESSAGES } from '@tradecraft/shared';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api-client';
import { paths } from '../../lib/paths';

/** Logout: confirm, say 'You have been logged out.', then /login after 1.5 seconds. */
export const LOGOUT_REDIRECT_DELAY_MS = 1500;

export function LogoutButton() {
  const [opened, { open, close }] = useDisclosure(false);
  const [pending, setPending] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const logout = async () => {
    setPending(true);
    try {
      await api.post('/api/auth/logout');
    } catch {
      // Signing out locally is still right: the session cookie is cleared or already invalid.
    }
    close();
    notifications.show({
      message: AUTH_MESSAGES.loggedOut,
      color: 'accent',
      autoClose: LOGOUT_REDIRECT_DELAY_MS + 1000,
    });
    window.setTimeout(() => {
      queryClient.clear();
      void navigate(paths.login, { replace: true });
    }, LOGOUT_REDIRECT_DELAY_MS);
  };

  return (
    <>
      <Button variant="subtle" color="gray" leftSection={<IconLogout size={18} />} onClick={open} aria-label="Logout">
        <Text span visibleFrom="sm" inherit>
          Logout
        </Text>
      </Button>
      <Modal opened={opened} onClose={close} title="Logout" centered>
        <Text>{AUTH_MESSAGES.logoutQuestion}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void logout()} loading={pending}>
            Logout
          </Button>
        </Group>
      </Modal>
    </>
  );
}
