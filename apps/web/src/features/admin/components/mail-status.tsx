import { Alert, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { formatDateTime, formatRelative } from '../../../lib/dates';
import { useMailStatus } from '../api/get-mail-status';

/**
 * The mail card: whether mail goes out, how many messages wait for the mail server, when it last took one and the
 * latest error (docs/operations.md, "Mail").
 */
export function MailStatus() {
  const status = useMailStatus();
  const data = status.data;
  if (!data) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="mail-status-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="mail-status-title">
          Mail
        </Title>
        {!data.enabled ? (
          <Text size="sm" c="dimmed">
            Mail is not configured: nobody gets mail. Set SMTP_URL and MAIL_FROM to connect a mail server.
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Mail goes through {data.server}
            </Text>
            <Group gap="xl" wrap="wrap">
              <Text size="sm">
                <Text span fw={700}>
                  {data.backlog}
                </Text>{' '}
                waiting
              </Text>
              <Text size="sm">
                Last delivered:{' '}
                {data.lastDeliveredAt ? (
                  <time dateTime={data.lastDeliveredAt} title={formatDateTime(data.lastDeliveredAt)}>
                    {formatRelative(data.lastDeliveredAt)}
                  </time>
                ) : (
                  'not in the last week'
                )}
              </Text>
            </Group>
            {data.lastError && (
              <Alert
                color={data.backlog > 0 ? 'red' : 'yellow'}
                variant="light"
                icon={<IconAlertTriangle aria-hidden />}
                title={`Latest error, ${formatRelative(data.lastError.at)}`}
              >
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {data.lastError.message}
                </Text>
              </Alert>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
