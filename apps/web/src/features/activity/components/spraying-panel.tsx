import { SPRAY_ACCOUNTS } from '@tradecraft/shared';
import { Alert, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { usePasswordSpraying } from '../api/get-password-spraying';
import { formatDateTime } from '../../../lib/dates';

/** Password spraying: addresses failing on several accounts; at SPRAY_ACCOUNTS they are throttled. */
export function SprayingPanel() {
  const spraying = usePasswordSpraying();
  const addresses = spraying.data?.addresses ?? [];
  if (addresses.length === 0) return null;
  return (
    <Alert color="orange" icon={<IconAlertTriangle />} title="Possible password spraying" role="status">
      <Stack gap="xs">
        <Text size="sm">
          These addresses failed to sign in on several accounts in the last 15 minutes. At {SPRAY_ACCOUNTS} accounts an
          address is throttled: its sign-ins wait until the 15 minutes pass.
        </Text>
        <Table.ScrollContainer minWidth={420}>
          <Table aria-label="Addresses failing on many accounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Address</Table.Th>
                <Table.Th>Accounts</Table.Th>
                <Table.Th>Failures</Table.Th>
                <Table.Th>Last</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {addresses.map((row) => (
                <Table.Tr key={row.ip}>
                  <Table.Td>
                    <Group gap="xs">
                      {row.ip}
                      {row.throttled && (
                        <Badge color="red" size="sm">
                          Throttled
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{row.accounts}</Table.Td>
                  <Table.Td>{row.failures}</Table.Td>
                  <Table.Td>{formatDateTime(row.lastAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Alert>
  );
}
