import type { ScenarioListItem } from '@tradecraft/shared';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import {
  IconCircleCheck,
  IconCircleDashed,
  IconFlag,
  IconListNumbers,
  IconPlayerPlay,
  IconPlayerTrackNext,
  IconProgress,
  IconRefresh,
  IconStarFilled,
} from '@tabler/icons-react';
import { useDisclosure } from '@mantine/hooks';
import { memo } from 'react';
import { Link, useNavigate } from 'react-router';
import { StartOverDialog } from '../../../ui/start-over-dialog';
import { paths } from '../../../lib/paths';
import { difficultyName, difficultyText } from '../lib/difficulty';
import { matchedTechniques } from '../lib/picker-filters';
import { ScenarioTypeBadge, typeCardClass, typeColorVars } from './scenario-type';

/** Where the trainee stands: not started, in progress at a step, or completed with the best score. */
function ProgressLine({ progress }: { progress: ScenarioListItem['progress'] }) {
  const best = progress.best;
  const bestText = best
    ? `best ${best.scorePercent === null ? '-' : `${best.scorePercent}%`}${best.result === '-' ? '' : ` (${best.result})`}`
    : null;
  const runsText = progress.completedRuns > 1 ? `, ${progress.completedRuns} runs` : '';
  if (progress.inProgress) {
    return (
      <Group gap={6} wrap="nowrap" data-testid="scenario-progress">
        <IconProgress size={18} aria-hidden color="var(--mantine-color-blue-text)" />
        <Text size="sm" fw={600} className="tabular-nums">
          In progress · step {progress.inProgress.step}
          {bestText && (
            <Text span size="sm" c="dimmed" fw={400}>
              {` · completed before, ${bestText}`}
            </Text>
          )}
        </Text>
      </Group>
    );
  }
  if (best) {
    return (
      <Group gap={6} wrap="nowrap" data-testid="scenario-progress">
        <IconCircleCheck size={18} aria-hidden color="var(--mantine-color-green-text)" />
        <Text size="sm" fw={600} className="tabular-nums">
          Completed · {bestText}
          {runsText}
        </Text>
      </Group>
    );
  }
  return (
    <Group gap={6} wrap="nowrap" data-testid="scenario-progress">
      <IconCircleDashed size={18} aria-hidden color="var(--mantine-color-dimmed)" />
      <Text size="sm" c="dimmed">
        Not started
      </Text>
    </Group>
  );
}

/**
 * A run in progress: the main button goes on with it (never a second run), and Start over asks first, then ends
 * it (kept in history) and starts a new one.
 */
function ResumeActions({ scenario, runId }: { scenario: ScenarioListItem; runId: string }) {
  const [opened, { open, close }] = useDisclosure(false);
  const navigate = useNavigate();
  return (
    <Stack gap={6}>
      <Button
        component={Link}
        // `resume` also puts an ended run (End Simulation) back in progress where it stopped.
        to={paths.simulation(scenario.id, { simId: runId, resume: true })}
        leftSection={<IconPlayerTrackNext size={16} aria-hidden />}
        aria-label={`Resume Simulation: ${scenario.name}`}
        fullWidth
      >
        Resume Simulation
      </Button>
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={open}
        leftSection={<IconRefresh size={14} aria-hidden />}
        aria-label={`Start over: ${scenario.name}`}
        style={{ alignSelf: 'center' }}
      >
        Start over
      </Button>
      <StartOverDialog
        opened={opened}
        scenarioName={scenario.name}
        onClose={close}
        onConfirm={() => {
          close();
          void navigate(paths.simulation(scenario.id, { startOver: true }));
        }}
      />
    </Stack>
  );
}

/** Memoised: the picker draws its cards in batches, and a card already drawn is not drawn again for each batch. */
export const ScenarioCard = memo(function ScenarioCard({
  scenario,
  search = '',
}: {
  scenario: ScenarioListItem;
  search?: string;
}) {
  const titleId = `scenario-${scenario.id}-title`;
  const techniques = search.trim() ? matchedTechniques(scenario, search) : [];
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
          {scenario.startHere ? (
            <Badge color="accent" variant="filled" leftSection={<IconFlag size={12} aria-hidden />}>
              Start here
            </Badge>
          ) : (
            scenario.recommended && (
              <Badge color="accent" variant="light" leftSection={<IconStarFilled size={12} aria-hidden />}>
                Recommended
              </Badge>
            )
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
          {techniques.length > 0 && <Text size="sm">Practises {techniques.join(', ')}</Text>}
        </Stack>
        <ProgressLine progress={scenario.progress} />
        {scenario.progress.inProgress ? (
          <ResumeActions scenario={scenario} runId={scenario.progress.inProgress.runId} />
        ) : (
          <Button
            component={Link}
            to={paths.simulation(scenario.id)}
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            aria-label={`Start Simulation: ${scenario.name}`}
            fullWidth
          >
            Start Simulation
          </Button>
        )}
      </Stack>
    </Card>
  );
});
