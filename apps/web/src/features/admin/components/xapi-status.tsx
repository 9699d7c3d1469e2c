import { Alert, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { formatDateTime, formatRelative } from '../../../lib/dates';
import { useXapiStatus } from '../api/get-xapi-status';

/**
 * The xAPI card: how many statements wait for the Learning Record Store, how many it refused, when it last took a
 * batch and the latest error. Shown only when XAPI_ENDPOINT is set (docs/interoperability.md, "xAPI").
 */
export function XapiStatus() {
  const status = useXapiStatus();
  const data = status.data;
  if (!data?.enabled) return null;
  const waitingLong =
    data.oldestWaitingSince !== null && Date.now() - Date.parse(data.oldestWaitingSince) > 10 * 60_000;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="xapi-status-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="xapi-status-title">
          Learning Record Store
        </Title>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          xAPI statements go to {data.endpoint}
        </Text>
        <Group wrap="wrap" style={{ columnGap: 'var(--mantine-spacing-xl)', rowGap: 4 }}>
          <Text size="sm">
            <Text span fw={700}>
              {data.backlog}
            </Text>{' '}
            waiting
            {data.oldestWaitingSince && ` (oldest ${formatRelative(data.oldestWaitingSince)})`}
          </Text>
          <Text size="sm">
            <Text span fw={700}>
              {data.rejected}
            </Text>{' '}
            refused by the LRS
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
            color={waitingLong || data.rejected > 0 ? 'red' : 'yellow'}
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title={`Latest error, ${formatRelative(data.lastError.at)}`}
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {data.lastError.message}
            </Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
