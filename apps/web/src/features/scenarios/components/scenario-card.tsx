import type { ScenarioListItem } from '@tradecraft/shared';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconListNumbers, IconPlayerPlay, IconStarFilled } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { difficultyName, difficultyText } from '../lib/difficulty';
import { ScenarioTypeBadge, typeCardClass, typeColorVars } from './scenario-type';

export function ScenarioCard({ scenario }: { scenario: ScenarioListItem }) {
  const titleId = `scenario-${scenario.id}-title`;
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      withBorder
      radius="md"
      padding="lg"
      h="100%"
      className={typeCardClass}
      style={typeColorVars(scenario.type)}
      data-testid="scenario-card"
    >
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" gap="xs">
          <ScenarioTypeBadge type={scenario.type} />
          {scenario.recommended && (
            <Badge color="accent" variant="light" leftSection={<IconStarFilled size={12} aria-hidden />}>
              Recommended
            </Badge>
          )}
        </Group>
        <Title order={2} size="h4" id={titleId}>
          {scenario.name}
        </Title>
        <Text size="sm" style={{ flexGrow: 1 }}>
          {scenario.description}
        </Text>
        <Stack gap={2} c="dimmed">
          <Text size="sm" className="tabular-nums">
            {difficultyText(scenario.difficulty)} · {difficultyName(scenario.difficulty)}
          </Text>
          <Group gap={4} wrap="nowrap">
            <IconListNumbers size={16} aria-hidden />
            <Text size="sm" className="tabular-nums">
              {scenario.stepCount} {scenario.stepCount === 1 ? 'step' : 'steps'}
            </Text>
          </Group>
        </Stack>
        <Button
          component={Link}
          to={paths.simulation(scenario.id)}
          leftSection={<IconPlayerPlay size={16} aria-hidden />}
          aria-label={`Start Simulation: ${scenario.name}`}
          fullWidth
        >
          Start Simulation
        </Button>
      </Stack>
    </Card>
  );
}
