import { API_TOKEN_SCOPE_LABELS, API_TOKEN_SCOPES, type ApiToken, type ApiTokenScope } from '@tradecraft/shared';
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertCircle, IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useId, useState, type FormEvent } from 'react';
import { LoadError } from '../../../ui/load-error';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';
import { formatDateTime } from '../../../lib/dates';

const when = (iso: string | null) => (iso ? formatDateTime(iso) : 'Never');

function stateOf(token: ApiToken): { label: string; color: string } {
  if (token.revokedAt) return { label: 'Revoked', color: 'gray' };
  if (Date.parse(token.expiresAt) <= Date.now()) return { label: 'Expired', color: 'gray' };
  return { label: 'Active', color: 'green' };
}

function NewTokenForm() {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [days, setDays] = useState<number | string>(90);
  const scopeLabel = useId();
  const create = useCreateApiToken();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, scope, expiresInDays: Number(days) }, { onSuccess: () => setName('') });
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4">
            New token
          </Title>
          {create.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {create.error.message}
            </Alert>
          )}
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Name"
              description="What it is for, such as Nightly progress export"
              required
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={80}
              w={{ base: '100%', sm: 280 }}
            />
            <Stack gap={4}>
              <Text id={scopeLabel} size="sm" fw={500}>
                Access
              </Text>
              <SegmentedControl
                aria-labelledby={scopeLabel}
                value={scope}
                onChange={(value) => setScope(value as ApiTokenScope)}
                data={API_TOKEN_SCOPES.map((value) => ({ value, label: API_TOKEN_SCOPE_LABELS[value] }))}
              />
            </Stack>
            <NumberInput label="Expires after (days)" min={1} max={365} value={days} onChange={setDays} w={170} />
            <Button
              type="submit"
              loading={create.isPending}
              disabled={!name.trim()}
              leftSection={<IconKey size={18} />}
            >
              Make token
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal
        opened={Boolean(create.data)}
        onClose={() => create.reset()}
        title="Copy your new token now"
        size="lg"
        closeOnClickOutside={false}
      >
        {create.data && (
          <Stack>
            <Text>
              This is the only time <strong>{create.data.apiToken.name}</strong> is shown. Store it in your script's
              secret store; send it as <Code>Authorization: Bearer &lt;token&gt;</Code>.
            </Text>
            <Code block aria-label="The new API token" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {create.data.token}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={create.data.token}>
                {({ copied, copy }) => (
                  <Button
                    variant="default"
                    onClick={copy}
                    leftSection={copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  >
                    {copied ? 'Copied' : 'Copy token'}
                  </Button>
                )}
              </CopyButton>
              <Button onClick={() => create.reset()}>I have stored it</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}

function TokenRows({ tokens }: { tokens: ApiToken[] }) {
  const revoke = useRevokeApiToken();
  const [confirming, setConfirming] = useState<ApiToken | null>(null);
  if (tokens.length === 0) return <Text c="dimmed">No tokens yet.</Text>;
  return (
    <>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Access</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.map((token) => {
              const state = stateOf(token);
              return (
                <Table.Tr key={token.id}>
                  <Table.Td>{token.name}</Table.Td>
                  <Table.Td>{API_TOKEN_SCOPE_LABELS[token.scope]}</Table.Td>
                  <Table.Td>
                    <Badge color={state.color} variant="light">
                      {state.label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{when(token.lastUsedAt)}</Table.Td>
                  <Table.Td>{when(token.expiresAt)}</Table.Td>
                  <Table.Td>
                    {state.label === 'Active' && (
                      <Button size="xs" color="red" variant="light" onClick={() => setConfirming(token)}>
                        Revoke <VisuallyHidden>{token.name}</VisuallyHidden>
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title="Revoke this token?">
        <Stack>
          <Text>
            Scripts using <strong>{confirming?.name}</strong> stop working at once. This cannot be undone.
          </Text>
          {revoke.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {revoke.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() => confirming && revoke.mutate(confirming.id, { onSuccess: () => setConfirming(null) })}
            >
              Revoke
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

export default function ApiTokensPage() {
  const tokens = useApiTokens();
  return (
    <Stack>
      <div>
        <Title order={1}>API Tokens</Title>
        <Text c="dimmed">
          Personal tokens for scripts: a nightly progress export, a scenario upload from CI. A token acts as you; a
          read-only one may only read. Every change made with a token is in the audit log under its name.
        </Text>
      </div>
      <NewTokenForm />
      <Card withBorder radius="md" padding="lg">
        <Stack>
          <Title order={2} size="h4">
            Your tokens
          </Title>
          {tokens.isPending ? (
            <Skeleton height={120} />
          ) : tokens.isError ? (
            <LoadError title="Could not load your tokens" error={tokens.error} onRetry={() => void tokens.refetch()} />
          ) : (
            <TokenRows tokens={tokens.data.tokens} />
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
