import {
  formatCredit,
  ScenarioSchema,
  STEP_KIND_LABELS,
  type ScenarioDefinition,
  type StepResult,
} from '@tradecraft/shared';
import { Alert, Badge, Button, Group, Modal, Paper, Select, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowRight,
  IconCircleCheck,
  IconCircleHalf2,
  IconCircleX,
  IconFlag,
  IconRotateClockwise,
} from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { stepCounterText } from '../../../ui/player/step-counter';
import { StepControl } from '../../../ui/player/controls/step-control';
import type { AnswerFields } from '../../../ui/player/controls/control-props';
import { HintButton } from '../../../ui/player/hint-button';
import { StepPanel } from '../../../ui/player/step-panel';
import classes from '../../../ui/player/player.module.css';
import { toDefinition, type DraftScenario } from '../lib/draft';
import { answerInPreview, toPlayerStep, type PreviewAnswer } from '../lib/preview';

function look(result: StepResult) {
  if (result.verdict === 'right') return { color: 'green', icon: <IconCircleCheck /> };
  if (result.verdict === 'partial') return { color: 'yellow', icon: <IconCircleHalf2 /> };
  return { color: 'red', icon: <IconCircleX /> };
}

interface Visit {
  stepId: string;
  /** A fresh visit (not a Retry) earns credit with its first answer. */
  firstSubmission: boolean;
  hintOpened: boolean;
  answer: Extract<PreviewAnswer, { ok: true }> | null;
  refusal: string | null;
}

/** Plays the draft as a trainee would, from any step, in the browser: nothing is recorded. */
function PreviewPlayer({ definition, startId }: { definition: ScenarioDefinition; startId: string }) {
  const [seed] = useState(() => Math.random().toString(36).slice(2));
  const [visit, setVisit] = useState<Visit>({
    stepId: startId,
    firstSubmission: true,
    hintOpened: false,
    answer: null,
    refusal: null,
  });
  const [score, setScore] = useState({ earned: 0, scored: 0 });
  const [finished, setFinished] = useState(false);
  // Counted along the path played, as the player counts it (never the step's place in the file).
  const [played, setPlayed] = useState(1);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const step = definition.steps.find((candidate) => candidate.id === visit.stepId);

  if (finished || !step) {
    const percent = score.scored > 0 ? Math.round((score.earned / score.scored) * 100) : 0;
    return (
      <Alert color="green" icon={<IconFlag />} title="End of the preview">
        <Text size="sm">
          Credit {formatCredit(score.earned)} of {score.scored} scored step{score.scored === 1 ? '' : 's'} ({percent}{' '}
          %). A run passes at 70 %. Nothing was recorded.
        </Text>
      </Alert>
    );
  }

  const playerStep = toPlayerStep(definition, step, { seed, hintOpened: visit.hintOpened });
  const submit = (fields: AnswerFields) => {
    if (visit.answer) return;
    const outcome = answerInPreview(definition, step, fields, {
      seed,
      hintOpened: visit.hintOpened,
      firstSubmission: visit.firstSubmission,
    });
    if (!outcome.ok) {
      setVisit({ ...visit, refusal: outcome.message });
      return;
    }
    setVisit({ ...visit, answer: outcome, refusal: null });
    if (visit.firstSubmission && step.scored !== false) {
      setScore((current) => ({
        earned: current.earned + outcome.graded.earnedThousandths / 1000,
        scored: current.scored + 1,
      }));
    }
  };
  const goOn = () => {
    const next = visit.answer?.next;
    if (!next) return;
    if (next.kind === 'finish') setFinished(true);
    else if (next.kind === 'retry') setVisit({ ...visit, firstSubmission: false, answer: null, refusal: null });
    else {
      setVisit({ stepId: next.stepId, firstSubmission: true, hintOpened: false, answer: null, refusal: null });
      setPlayed((count) => count + 1);
    }
    requestAnimationFrame(() => headingRef.current?.focus());
  };
  const result = visit.answer?.graded.result ?? null;
  const feedbackLook = result ? look(result) : null;
  return (
    <Stack gap="md">
      <StepPanel step={playerStep} counter={stepCounterText(played, null)} headingRef={headingRef} />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={3} size="h4">
              Your decision
            </Title>
            <Badge variant="light" color="gray">
              {STEP_KIND_LABELS[step.kind]}
              {step.scored === false ? ' · not scored' : ''}
            </Badge>
          </Group>
          {visit.answer && result && feedbackLook && (
            <Alert
              variant="light"
              color={feedbackLook.color}
              icon={feedbackLook.icon}
              role="group"
              aria-label="Feedback"
            >
              <Text fw={600} className={classes.preWrap}>
                {visit.answer.graded.feedback}
              </Text>
              <Text size="sm" mt={4}>
                {result.scored
                  ? result.firstSubmission
                    ? `Credit earned: ${formatCredit(result.credit)} of 1.`
                    : 'Only the first answer on a visit earns credit: this one earns nothing.'
                  : 'This step is not scored.'}
              </Text>
            </Alert>
          )}
          {visit.answer && (
            <Button
              onClick={goOn}
              style={{ alignSelf: 'flex-start' }}
              rightSection={
                visit.answer.next.kind === 'retry' ? (
                  <IconRotateClockwise size={18} aria-hidden />
                ) : (
                  <IconArrowRight size={18} aria-hidden />
                )
              }
            >
              {visit.answer.next.kind === 'retry' ? 'Retry' : visit.answer.next.kind === 'finish' ? 'Finish' : 'Next'}
            </Button>
          )}
          {visit.refusal && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {visit.refusal}
            </Alert>
          )}
          <StepControl
            key={`${visit.stepId}-${visit.firstSubmission}`}
            step={playerStep}
            result={result}
            busy={false}
            onSubmit={submit}
          />
          <HintButton
            hint={playerStep.hintState}
            answered={visit.answer !== null}
            busy={false}
            onOpen={() => setVisit({ ...visit, hintOpened: true })}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}

/** The preview: pick where to start, then play. A draft whose fields are not complete cannot be played yet. */
export function PreviewModal({
  opened,
  onClose,
  draft,
  startIndex,
}: {
  opened: boolean;
  onClose: () => void;
  draft: DraftScenario;
  startIndex: number;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      fullScreen
      title="Preview as a trainee"
      closeButtonProps={{ 'aria-label': 'Close the preview' }}
    >
      {opened && <PreviewBody draft={draft} startIndex={startIndex} />}
    </Modal>
  );
}

function PreviewBody({ draft, startIndex }: { draft: DraftScenario; startIndex: number }) {
  const parsed = useMemo(() => ScenarioSchema.safeParse(toDefinition(draft)), [draft]);
  const [startId, setStartId] = useState<string | null>(
    () => draft.steps[startIndex]?.id ?? draft.steps[0]?.id ?? null,
  );
  const [round, setRound] = useState(0);
  if (!parsed.success) {
    return (
      <Alert color="yellow" icon={<IconAlertCircle />} title="This draft cannot be played yet">
        Some fields are missing or out of shape ({parsed.error.issues.length} listed by the checker). Fix them, then
        preview again.
      </Alert>
    );
  }
  const definition = parsed.data;
  const start = definition.steps.find((step) => step.id === startId) ?? definition.steps[0];
  return (
    <Stack gap="md" maw={960} mx="auto">
      <Group align="flex-end" gap="sm">
        <Select
          label="Start at"
          data={definition.steps.map((step, index) => ({
            value: step.id,
            label: `${index + 1}. ${step.id} · ${step.title}`,
          }))}
          value={start?.id ?? null}
          onChange={(value) => {
            setStartId(value);
            setRound((n) => n + 1);
          }}
          allowDeselect={false}
          searchable
          style={{ flex: '1 1 260px' }}
        />
        <Button variant="default" onClick={() => setRound((n) => n + 1)}>
          Start over
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Played in your browser with the same grading and flow as a run; nothing is recorded.
      </Text>
      {start && <PreviewPlayer key={`${start.id}-${round}`} definition={definition} startId={start.id} />}
    </Stack>
  );
}
