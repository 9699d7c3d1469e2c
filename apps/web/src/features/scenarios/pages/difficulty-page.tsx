import { DEFAULT_DIFFICULTY, MAX_DIFFICULTY, MIN_DIFFICULTY } from '@tradecraft/shared';
import { Alert, Button, Card, Group, Skeleton, Slider, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconDeviceFloppy } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useDifficulty } from '../api/get-difficulty';
import { useScenarios } from '../api/get-scenarios';
import { useUpdateDifficulty } from '../api/update-difficulty';
import { LoadError } from '../../../ui/load-error';
import { difficultyName } from '../lib/difficulty';

const MARKS = Array.from({ length: MAX_DIFFICULTY - MIN_DIFFICULTY + 1 }, (_, index) => {
  const value = MIN_DIFFICULTY + index;
  return { value, label: String(value) };
});

function DifficultyForm({ saved }: { saved: number }) {
  const labelId = useId();
  const [value, setValue] = useState(saved);
  const update = useUpdateDifficulty();
  const scenarios = useScenarios();
  const matching = scenarios.data?.filter((scenario) => scenario.difficulty === value).length;

  const save = () => {
    update.mutate(value, {
      onSuccess: (difficulty) =>
        notifications.show({
          color: 'green',
          message: `Difficulty saved: ${difficulty} (${difficultyName(difficulty)}).`,
        }),
    });
  };

  return (
    <Card withBorder radius="md" padding="lg" maw={640}>
      <Stack gap="lg">
        <div>
          <Text id={labelId} fw={600}>
            Current Difficulty
          </Text>
          <Text size="xl" fw={700} className="tabular-nums" aria-live="polite">
            {value} · {difficultyName(value)}
          </Text>
        </div>
        <Slider
          min={MIN_DIFFICULTY}
          max={MAX_DIFFICULTY}
          step={1}
          marks={MARKS}
          value={value}
          onChange={(next) => {
            update.reset();
            setValue(next);
          }}
          label={(level) => `${level} · ${difficultyName(level)}`}
          thumbProps={{ 'aria-labelledby': labelId, 'aria-valuetext': `${value}, ${difficultyName(value)}` }}
          mb="lg"
          px={6}
        />
        {matching !== undefined && (
          <Text size="sm" c="dimmed">
            {matching === 1
              ? '1 published scenario has this difficulty.'
              : `${matching} published scenarios have this difficulty.`}
          </Text>
        )}
        {update.error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert" title="The difficulty was not saved">
            {update.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          {value !== saved && (
            <Text size="sm" c="dimmed">
              Saved for the platform: {saved} · {difficultyName(saved)}
            </Text>
          )}
          <Button
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            onClick={save}
            loading={update.isPending}
            disabled={value === saved}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export default function DifficultyPage() {
  const difficulty = useDifficulty();
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Difficulty Adjuster</Title>
        <Text c="dimmed">
          Set the platform difficulty from 1 (novice) to 5 (expert), {DEFAULT_DIFFICULTY} by default. The scenario
          picker marks scenarios of this difficulty as Recommended for every trainee.
        </Text>
      </div>
      {difficulty.isPending ? (
        <Skeleton
          height={220}
          maw={640}
          radius="md"
          role="status"
          aria-busy="true"
          aria-label="Loading the difficulty"
        />
      ) : difficulty.isError ? (
        <LoadError
          title="The difficulty could not be loaded"
          error={difficulty.error}
          onRetry={() => void difficulty.refetch()}
        />
      ) : (
        <DifficultyForm saved={difficulty.data} />
      )}
    </Stack>
  );
}
