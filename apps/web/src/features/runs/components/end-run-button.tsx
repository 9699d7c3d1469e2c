import { ActionIcon, Alert, Button, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertCircle, IconDotsVertical, IconPlayerStopFilled } from '@tabler/icons-react';
import { useEndRun } from '../api/end-run';

/**
 * 'End Simulation', always at hand while a run is in progress (on a phone in the run's menu, so the question has
 * the first screen); asks before ending for good.
 */
export function EndRunButton({ runId, menuOnPhone = false }: { runId: string; menuOnPhone?: boolean }) {
  const [opened, { open, close }] = useDisclosure(false);
  const endRun = useEndRun(runId);
  const closeDialog = () => {
    endRun.reset();
    close();
  };
  return (
    <>
      <Button
        variant="default"
        visibleFrom={menuOnPhone ? 'sm' : undefined}
        leftSection={<IconPlayerStopFilled size={16} color="var(--mantine-color-red-filled)" aria-hidden />}
        onClick={open}
      >
        End Simulation
      </Button>
      {menuOnPhone && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="default" size="lg" hiddenFrom="sm" aria-label="Run menu">
              <IconDotsVertical size={18} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconPlayerStopFilled size={16} color="var(--mantine-color-red-filled)" aria-hidden />}
              onClick={open}
            >
              End Simulation
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      <Modal opened={opened} onClose={closeDialog} title="End this simulation?" centered>
        <Stack>
          <Text size="sm">
            Your answers so far are saved and the run is marked as ended. You can resume it later at this step, unless
            you start this scenario over.
          </Text>
          {endRun.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {endRun.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={closeDialog}>
              Keep playing
            </Button>
            <Button
              color="red.9"
              loading={endRun.isPending}
              onClick={() => endRun.mutate(undefined, { onSuccess: close })}
            >
              End Simulation
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
