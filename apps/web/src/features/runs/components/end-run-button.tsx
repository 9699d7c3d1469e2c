import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertCircle, IconPlayerStopFilled } from '@tabler/icons-react';
import { useEndRun } from '../api/end-run';

/** 'End Simulation', always on screen while a run is in progress; asks before ending for good. */
export function EndRunButton({ runId }: { runId: string }) {
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
        leftSection={<IconPlayerStopFilled size={16} color="var(--mantine-color-red-filled)" aria-hidden />}
        onClick={open}
      >
        End Simulation
      </Button>
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
