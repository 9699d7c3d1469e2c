import type { ScenarioListItem } from '@tradecraft/shared';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useDeleteScenario } from '../api/delete-scenario';

/** Delete asks first (earlier versions deleted at once); the server audits it. */
export function DeleteScenarioModal({ scenario, onClose }: { scenario: ScenarioListItem | null; onClose: () => void }) {
  const remove = useDeleteScenario();

  const close = () => {
    remove.reset();
    onClose();
  };

  const confirm = () => {
    if (!scenario) return;
    remove.mutate(scenario.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Deleted "${scenario.name}".` });
        close();
      },
    });
  };

  return (
    <Modal
      opened={scenario !== null}
      onClose={close}
      title="Delete scenario"
      centered
      closeButtonProps={{ 'aria-label': 'Cancel' }}
    >
      {scenario && (
        <Stack>
          <Text>
            Delete <strong>{scenario.name}</strong>? Trainees will no longer see it in the scenario picker. Training
            records already made with it keep their scores.
          </Text>
          {remove.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {remove.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" onClick={confirm} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
