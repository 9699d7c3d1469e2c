import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { UnderConstructionIllustration } from '../components/under-construction-illustration';

export default function UnderConstructionPage() {
  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>Admin Panel</Title>
        <Text c="dimmed">This part of the admin panel is under construction.</Text>
      </div>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack align="center" gap="md">
          <UnderConstructionIllustration w="100%" maw={480} />
          <Text ta="center">
            Everything an administrator needs today is in the sidebar&apos;s Admin Panel group.{' '}
            <Anchor component={Link} to={paths.admin}>
              Go to the admin dashboard
            </Anchor>
            .
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
