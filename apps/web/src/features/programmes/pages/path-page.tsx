import type { PathStep } from '@tradecraft/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  Progress,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCertificate, IconCheck, IconDownload, IconLock, IconPlayerPlay } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../ui/load-error';
import { certificatePdfUrl, usePath } from '../api/paths';
import { formatWhen } from '../components/status-badge';

function StepRow({ step, index }: { step: PathStep; index: number }) {
  const icon =
    step.state === 'passed' ? (
      <IconCheck size={16} aria-hidden />
    ) : step.state === 'locked' ? (
      <IconLock size={16} aria-hidden />
    ) : (
      <IconPlayerPlay size={16} aria-hidden />
    );
  const stateText =
    step.state === 'passed' ? 'Passed' : step.state === 'locked' ? 'Locked: pass the step before' : 'Open';
  return (
    <List.Item
      icon={
        <ThemeIcon
          color={step.state === 'passed' ? 'green' : step.state === 'locked' ? 'gray' : 'blue'}
          radius="xl"
          size={28}
          variant="light"
        >
          {icon}
        </ThemeIcon>
      }
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0}>
          <Text fw={600}>
            {index + 1}. {step.scenarioName}
          </Text>
          <Text size="sm" c="dimmed">
            {stateText}
            {step.bestPercent !== null ? ` · best ${step.bestPercent}%` : ''} · {step.type}, difficulty{' '}
            {step.difficulty}/5
          </Text>
        </Stack>
        {step.state === 'open' && step.available && (
          <Button
            component={Link}
            to={paths.simulation(step.scenarioId)}
            size="xs"
            aria-label={`Play ${step.scenarioName}`}
          >
            Play
          </Button>
        )}
        {step.state === 'passed' && step.available && (
          <Anchor component={Link} to={paths.simulation(step.scenarioId)} size="sm">
            Play again
          </Anchor>
        )}
      </Group>
    </List.Item>
  );
}

export default function PathPage() {
  const { pathId = '' } = useParams();
  const path = usePath(pathId);
  usePageTitle(path.data?.name);
  if (path.isPending)
    return <Skeleton height={240} radius="md" role="status" aria-busy="true" aria-label="Loading the learning path" />;
  if (path.isError)
    return (
      <LoadError title="The learning path could not be loaded" error={path.error} onRetry={() => void path.refetch()} />
    );
  const detail = path.data;
  const percent = detail.steps.length === 0 ? 0 : Math.round((100 * detail.passedCount) / detail.steps.length);
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{detail.name}</Title>
        {detail.description && <Text c="dimmed">{detail.description}</Text>}
        <Badge variant="outline" mt="xs" tt="none">
          {detail.unlock === 'sequential'
            ? 'Each scenario opens when the one before is passed'
            : 'Every scenario is open'}
        </Badge>
      </div>
      <Paper withBorder radius="md" p="md">
        <Stack gap="xs">
          <Text fw={600} id="path-progress-label">
            {detail.passedCount} of {detail.steps.length} passed
          </Text>
          <Progress.Root size="lg" radius="xl">
            <Progress.Section value={percent} aria-labelledby="path-progress-label" />
          </Progress.Root>
        </Stack>
      </Paper>
      {detail.certificate && (
        <Alert
          color={detail.certificate.revokedAt ? 'red' : 'green'}
          icon={<IconCertificate aria-hidden />}
          title={detail.certificate.revokedAt ? 'Certificate revoked' : 'Path complete: your certificate'}
        >
          <Stack gap="xs">
            <Text size="sm">
              Issued {formatWhen(detail.certificate.issuedAt)} to {detail.certificate.holderName}.
              {detail.certificate.revokedAt ? ` Revoked ${formatWhen(detail.certificate.revokedAt)}.` : ''}
            </Text>
            <Group>
              <Button
                component="a"
                href={certificatePdfUrl(detail.certificate.id)}
                download="certificate.pdf"
                size="xs"
                leftSection={<IconDownload size={14} aria-hidden />}
              >
                Download certificate (PDF)
              </Button>
              <Anchor component={Link} to={detail.certificate.verifyPath} size="sm">
                Verification page
              </Anchor>
            </Group>
          </Stack>
        </Alert>
      )}
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="steps-heading">
        <Title order={2} size="h4" id="steps-heading" mb="sm">
          Scenarios in order
        </Title>
        <List spacing="md" center>
          {detail.steps.map((step, index) => (
            <StepRow key={step.position} step={step} index={index} />
          ))}
        </List>
      </Paper>
    </Stack>
  );
}
