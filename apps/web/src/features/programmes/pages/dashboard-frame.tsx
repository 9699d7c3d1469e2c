import type { MyAssignment, Remediation } from '@tradecraft/shared';
import { Anchor, Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay, IconRoute } from '@tabler/icons-react';
import { Link, Outlet } from 'react-router';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../ui/load-error';
import { useMyAssignments, useMyRemediation } from '../api/assignments';
import { formatWhen, StatusBadge } from '../components/status-badge';

function AssignmentCard({ item }: { item: MyAssignment }) {
  const titleId = `assignment-${item.id}`;
  return (
    <Card component="article" withBorder radius="md" padding="md" aria-labelledby={titleId} data-assignment={item.id}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" gap="xs">
          <Badge variant="outline" radius="sm" tt="none">
            {item.kind === 'path' ? 'Learning path' : 'Scenario'}
          </Badge>
          <StatusBadge status={item.status} />
        </Group>
        <Title order={3} size="h5" id={titleId}>
          {item.kind === 'path' ? (
            <Anchor component={Link} to={paths.learningPath(item.targetId)} inherit>
              {item.targetName}
            </Anchor>
          ) : (
            item.targetName
          )}
        </Title>
        <Text size="sm" c={item.status === 'overdue' ? 'red.8' : 'dimmed'}>
          {item.dueAt ? `Due ${formatWhen(item.dueAt)}` : 'No due date'}
          {item.kind === 'path' ? ` · ${item.progress.passed} of ${item.progress.total} passed` : ''}
          {item.bestPercent !== null && item.kind === 'scenario' ? ` · best ${item.bestPercent}%` : ''}
        </Text>
        {item.note && <Text size="sm">{item.note}</Text>}
        <Group mt="auto">
          {item.next ? (
            <Button
              component={Link}
              to={paths.simulation(item.next.scenarioId)}
              size="xs"
              leftSection={<IconPlayerPlay size={14} aria-hidden />}
              aria-label={`${item.next.resume ? 'Resume' : 'Start'} ${item.next.scenarioName}`}
            >
              {item.next.resume ? 'Resume' : 'Start'}
              {item.kind === 'path' ? `: ${item.next.scenarioName}` : ''}
            </Button>
          ) : item.kind === 'path' ? (
            <Button
              component={Link}
              to={paths.learningPath(item.targetId)}
              size="xs"
              variant="light"
              leftSection={<IconRoute size={14} aria-hidden />}
            >
              Certificate
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              Done.
            </Text>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

function AssignedToMe() {
  const assignments = useMyAssignments();
  // Nothing while they load: most trainees have none, and a placeholder that then went away moved the whole
  // dashboard up under them.
  if (assignments.isPending) return null;
  if (assignments.isError)
    return (
      <LoadError
        title="Your assignments could not be loaded"
        error={assignments.error}
        onRetry={() => void assignments.refetch()}
      />
    );
  if (assignments.data.items.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="assigned-heading">
      <Title order={2} size="h3" id="assigned-heading">
        Assigned to me
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {assignments.data.items.map((item) => (
          <AssignmentCard key={item.id} item={item} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function PractiseWeakest({ remediation }: { remediation: Remediation }) {
  if (remediation.scenarios.length === 0) return null;
  const weak = [
    ...remediation.weakTechniques.map((technique) => `${technique.id} ${technique.name} (${technique.sharePercent}%)`),
    ...remediation.weakSkills.map((skill) => `${skill.label} (${skill.percent}%)`),
  ];
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="weakest-heading">
      <Stack gap="xs">
        <Title order={2} size="h4" id="weakest-heading">
          Practise your weakest areas
        </Title>
        <Text size="sm" c="dimmed">
          Weakest: {weak.join(', ')}
        </Text>
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {remediation.scenarios.map((scenario) => (
            <Group component="li" key={scenario.id} gap="xs" wrap="wrap">
              <Anchor component={Link} to={paths.simulation(scenario.id)}>
                {scenario.name}
              </Anchor>
              <Text size="sm" c="dimmed">
                trains {scenario.trains.join(', ')}
              </Text>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}

function Remediation() {
  const remediation = useMyRemediation();
  return remediation.data ? <PractiseWeakest remediation={remediation.data} /> : null;
}

/**
 * The trainee's dashboard with their assignments first: the progress dashboard is drawn below (router.tsx
 * nests it here), so neither feature imports the other.
 */
export default function DashboardFrame() {
  return (
    <Stack gap="lg">
      <AssignedToMe />
      <Remediation />
      <Outlet />
    </Stack>
  );
}
