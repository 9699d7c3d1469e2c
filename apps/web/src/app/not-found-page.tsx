import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../lib/paths';

export default function NotFoundPage() {
  return (
    <Center component="main" mih="100dvh" p="md">
      <Stack align="center" gap="sm">
        <Text fz={64} fw={800} c="dimmed" aria-hidden>
          404
        </Text>
        <Title order={1}>Page Not Found</Title>
        <Text c="dimmed" ta="center">
          There is nothing at this address. It may have moved, or the link may be mistyped.
        </Text>
        <Anchor component={Link} to={paths.home}>
          Go to the home page
        </Anchor>
      </Stack>
    </Center>
  );
}
