import { Alert, Anchor, Center, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconHelpCircle } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../ui/load-error';
import { useVerification } from '../api/paths';
import { formatWhen } from '../components/status-badge';

/** Public: anyone holding a certificate's link sees whether it is genuine, revoked or unknown. */
export default function VerifyPage() {
  const { code = '' } = useParams();
  const verification = useVerification(code);
  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder radius="md" p="xl" maw={560} w="100%">
        <Stack gap="md">
          <Title order={1} size="h2">
            Certificate verification
          </Title>
          {verification.isPending ? (
            <Skeleton height={80} aria-label="Checking the certificate" />
          ) : verification.isError ? (
            <LoadError
              title="The certificate could not be checked"
              error={verification.error}
              onRetry={() => void verification.refetch()}
            />
          ) : verification.data.status === 'genuine' ? (
            <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} title="Genuine">
              <Text>
                <strong>{verification.data.holderName}</strong> completed the learning path{' '}
                <strong>{verification.data.pathName}</strong> on Tradecraft; issued{' '}
                {formatWhen(verification.data.issuedAt!)}.
              </Text>
            </Alert>
          ) : verification.data.status === 'revoked' ? (
            <Alert color="red" variant="light" icon={<IconCircleX aria-hidden />} title="Revoked">
              <Text>
                This certificate for {verification.data.holderName} ({verification.data.pathName}) was revoked on{' '}
                {formatWhen(verification.data.revokedAt!)}: it is no longer valid.
              </Text>
            </Alert>
          ) : (
            <Alert color="gray" variant="light" icon={<IconHelpCircle aria-hidden />} title="Unknown">
              <Text>No certificate has this code. Check the link for typing errors.</Text>
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            Code: <code>{code}</code>
          </Text>
          <Anchor component={Link} to={paths.login} size="sm">
            Tradecraft sign-in
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
