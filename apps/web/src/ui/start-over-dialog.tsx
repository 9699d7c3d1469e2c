import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';

/**
 * "Start over" asks first: it names the scenario and says the unfinished run is kept in history. Confirming
 * calls `onConfirm` (which starts the new run with startOver).
 */
export function StartOverDialog({
  opened,
  scenarioName,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  scenarioName: string;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Start "${scenarioName}" over?`} centered>
      <Stack>
        <Text size="sm">
          Your unfinished run of {scenarioName} ends now. It is kept in your history with its answers and score, and a
          new run starts at the first step.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={onConfirm} leftSection={<IconRefresh size={16} aria-hidden />}>
            Start over
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
