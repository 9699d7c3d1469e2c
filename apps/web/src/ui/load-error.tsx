import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A failed load says what failed and offers Retry (never a console-only failure). */
export function LoadError({ title, error, onRetry }: { title: string; error: Error; onRetry: () => void }) {
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title={title}>
      <Stack align="flex-start" gap="xs">
        <Text size="sm">{error.message}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}

/** A failed secondary load (a page's counts) under the part that could not be drawn: one line and Retry. */
export function InlineLoadError({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  return (
    <Group gap="xs">
      <Text size="sm" c="red" role="alert">
        {what} could not be loaded: {error.message}
      </Text>
      <Button size="compact-sm" variant="default" onClick={onRetry}>
        Retry
      </Button>
    </Group>
  );
}
