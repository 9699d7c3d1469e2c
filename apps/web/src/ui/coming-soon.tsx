import { Stack, Text, Title } from '@mantine/core';

/** Stands in for a screen whose issue has not landed yet: says so plainly, shows no fake data. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <Stack gap="xs">
      <Title order={1}>{title}</Title>
      <Text c="dimmed">This screen is coming soon.</Text>
    </Stack>
  );
}
