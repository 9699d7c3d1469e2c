import { Alert, Anchor, Button, List, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconMessageReport, IconExternalLink } from '@tabler/icons-react';
import { useMeta } from '../api/get-meta';

export default function ContactPage() {
  const meta = useMeta();

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>Contact Us</Title>
        <Text c="dimmed">Questions, problems and ideas go to the project&apos;s public code repository.</Text>
      </div>

      {meta.isPending ? (
        <Paper withBorder p="lg" radius="md" role="status" aria-busy="true" aria-label="Loading the repository address">
          <Stack>
            <Skeleton height={16} width="80%" />
            <Skeleton height={16} width="60%" />
            <Skeleton height={36} width={200} />
          </Stack>
        </Paper>
      ) : meta.isError ? (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" title="The repository address could not be loaded">
          <Stack align="flex-start" gap="xs">
            <Text size="sm">{meta.error.message}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void meta.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Stack gap="md">
            <Text>
              To report a problem, ask a question or suggest an improvement, open an issue in the project&apos;s public
              code repository:{' '}
              <Anchor
                href={meta.data.repositoryUrl}
                target="_blank"
                rel="noopener noreferrer"
                style={{ overflowWrap: 'anywhere' }}
              >
                {meta.data.repositoryUrl}
              </Anchor>
              .
            </Text>
            <div>
              <Text fw={500} size="sm" mb={4}>
                A good issue says:
              </Text>
              <List size="sm" spacing={4}>
                <List.Item>what you did, step by step, and on which screen;</List.Item>
                <List.Item>what you expected, and what happened instead;</List.Item>
                <List.Item>your browser, and a screenshot if it helps.</List.Item>
              </List>
            </div>
            <Text size="sm" c="dimmed">
              Issues are public: never include passwords, personal data or details of your organisation. To report a
              security weakness, open an issue asking a maintainer to contact you, without the details.
            </Text>
            <div>
              <Button
                component="a"
                href={`${meta.data.repositoryUrl}/issues/new`}
                target="_blank"
                rel="noopener noreferrer"
                leftSection={<IconMessageReport size={18} aria-hidden />}
                rightSection={<IconExternalLink size={16} aria-label="(opens in a new tab)" />}
              >
                Open an issue
              </Button>
            </div>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
