import { Button, Stack, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The form of every kind that is built up before it is sent (all but choice): its fields, then the one Submit
 * button. `onSubmit` runs on Submit or Enter; it checks what is missing and sends the answer.
 */
export function AnswerForm({
  busy,
  onSubmit,
  note,
  children,
}: {
  busy: boolean;
  onSubmit: () => void;
  note?: string;
  children: ReactNode;
}) {
  return (
    <Stack
      component="form"
      gap="sm"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <Button
        type="submit"
        size="md"
        loading={busy}
        leftSection={<IconSend size={18} aria-hidden />}
        style={{ alignSelf: 'flex-start' }}
      >
        Submit answer
      </Button>
      <Text size="xs" c="dimmed">
        {note ?? 'Your first submission is the one that earns credit.'}
      </Text>
    </Stack>
  );
}
