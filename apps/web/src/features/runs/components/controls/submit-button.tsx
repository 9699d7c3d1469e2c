import { Button, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';

/** The one way to send an answer that is built up first (every kind but choice); it counts once. */
export function SubmitAnswerButton({ busy, disabled, note }: { busy: boolean; disabled?: boolean; note?: string }) {
  return (
    <>
      <Button type="submit" size="md" loading={busy} disabled={disabled} leftSection={<IconSend size={18} aria-hidden />} style={{ alignSelf: 'flex-start' }}>
        Submit answer
      </Button>
      <Text size="xs" c="dimmed">
        {note ?? 'Your first submission is the one that earns credit.'}
      </Text>
    </>
  );
}
