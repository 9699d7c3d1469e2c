import {
  artifactLines,
  type ArtifactKind,
  type CaseFile,
  type CaseFileArtifact,
  type RunPin,
} from '@tradecraft/shared';
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Collapse,
  Group,
  Highlight,
  Loader,
  Paper,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconPin, IconPinFilled, IconPinnedOff, IconSearch } from '@tabler/icons-react';
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { AdmiraltyBadge, TlpBanner } from '../../../../ui/player/artifacts/intel-markings';
import { useCaseFile } from '../../api/get-case-file';
import { useRun } from '../../api/get-run';
import { usePinEvidence, useUnpinEvidence } from '../../api/pin-evidence';
import classes from './case-file.module.css';
import { Notebook } from './notebook';

const KIND_LABELS: Record<ArtifactKind, string> = {
  email: 'Email',
  log: 'Log',
  'forum-post': 'Forum post',
  feed: 'Feed entry',
  report: 'Report',
  chat: 'Chat',
  other: 'Intel',
  dns: 'Passive DNS',
  whois: 'WHOIS record',
  stix: 'STIX 2.1',
};

export type CaseFileTab = 'artifacts' | 'board' | 'notes';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Everything a search looks through in an artifact, in lower case. */
function searchableText(artifact: CaseFileArtifact, stepTitle: string): string {
  return [
    stepTitle,
    KIND_LABELS[artifact.kind],
    artifact.title,
    artifact.source,
    artifact.date,
    artifact.tlp && `TLP:${artifact.tlp}`,
    artifact.admiralty,
    artifact.content,
    ...(artifact.indicators ?? []).flatMap((indicator) => [indicator.type, indicator.value, indicator.context]),
  ]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
}

const pinKey = (stepId: string, artifactIndex: number, line: number | null) =>
  `${stepId}|${artifactIndex}|${line ?? 0}`;

/**
 * The case file of a run: every artifact of the steps reached, grouped by step in the order met and searchable,
 * each line pinnable to the evidence board; the board; the notebook. What it shows comes from the server, which
 * sends nothing of steps not yet reached.
 */
export default function CaseFilePanel({
  runId,
  tab,
  onTabChange,
}: {
  runId: string;
  /** The open tab, kept by the caller so it stays when the panel turns into a drawer (a phone turned). */
  tab: CaseFileTab;
  onTabChange: (tab: CaseFileTab) => void;
}) {
  const query = useCaseFile(runId);
  // The run moved to another step while the case file is open: what was reached is read again.
  const currentStepId = useRun(runId).data?.run.currentStep?.id;
  const { refetch } = query;
  const shownFor = useRef(currentStepId);
  useEffect(() => {
    if (shownFor.current === currentStepId) return;
    shownFor.current = currentStepId;
    void refetch();
  }, [currentStepId, refetch]);
  if (query.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle />} role="alert">
        {query.error.message}
      </Alert>
    );
  }
  if (!query.data) {
    return (
      <Group gap="xs" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm">Loading the case file...</Text>
      </Group>
    );
  }
  const file = query.data;
  return (
    <Tabs value={tab} onChange={(value) => onTabChange((value ?? 'artifacts') as CaseFileTab)} keepMounted>
      <Tabs.List grow>
        <Tabs.Tab value="artifacts">Artifacts</Tabs.Tab>
        <Tabs.Tab value="board">Pinned ({file.pins.length})</Tabs.Tab>
        <Tabs.Tab value="notes">Notebook</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="artifacts" pt="md">
        <ArtifactsByStep runId={runId} file={file} />
      </Tabs.Panel>
      <Tabs.Panel value="board" pt="md">
        <EvidenceBoard runId={runId} pins={file.pins} />
      </Tabs.Panel>
      <Tabs.Panel value="notes" pt="md">
        <Notebook runId={runId} initial={file.notes} />
      </Tabs.Panel>
    </Tabs>
  );
}

function ArtifactsByStep({ runId, file }: { runId: string; file: CaseFile }) {
  const [search, setSearch] = useState('');
  const term = useDeferredValue(search.trim().toLowerCase());
  const pinned = useMemo(
    () => new Map(file.pins.map((pin) => [pinKey(pin.stepId, pin.artifactIndex, pin.line), pin])),
    [file.pins],
  );
  const steps = file.steps
    .map((step) => ({
      ...step,
      artifacts: term
        ? step.artifacts.filter((artifact) => searchableText(artifact, step.title).includes(term))
        : step.artifacts,
    }))
    .filter((step) => !term || step.artifacts.length > 0);
  const total = file.steps.reduce((sum, step) => sum + step.artifacts.length, 0);
  const shown = steps.reduce((sum, step) => sum + step.artifacts.length, 0);

  return (
    <Stack gap="md">
      <TextInput
        type="search"
        label="Search the case file"
        description="Titles, sources, text and indicators of every artifact you have met"
        placeholder="A domain, an address, a word..."
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
      />
      <Text size="sm" c="dimmed" role="status">
        {term
          ? `${plural(shown, 'artifact')} of ${total} match "${search.trim()}".`
          : `${plural(total, 'artifact')} from ${plural(file.steps.length, 'step')} you have reached.`}
      </Text>
      <Stack component="ol" gap="lg" className={classes.plainList}>
        {steps.map((step) => (
          <li key={step.stepId}>
            <Stack gap="sm" component="section" aria-labelledby={`case-step-${step.stepId}`}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="light" color="gray" circle aria-hidden>
                  {step.order}
                </Badge>
                <Title order={3} size="h5" id={`case-step-${step.stepId}`} style={{ overflowWrap: 'anywhere' }}>
                  {step.title}
                  {step.current && (
                    <Badge ml="xs" size="sm" variant="outline" style={{ verticalAlign: 'middle' }}>
                      Current step
                    </Badge>
                  )}
                </Title>
              </Group>
              {step.artifacts.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No artifacts on this step.
                </Text>
              ) : (
                step.artifacts.map((artifact) => (
                  <ArtifactEntry
                    key={artifact.index}
                    runId={runId}
                    stepId={step.stepId}
                    artifact={artifact}
                    term={term}
                    pinned={pinned}
                  />
                ))
              )}
            </Stack>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

function ArtifactEntry({
  runId,
  stepId,
  artifact,
  term,
  pinned,
}: {
  runId: string;
  stepId: string;
  artifact: CaseFileArtifact;
  term: string;
  pinned: ReadonlyMap<string, RunPin>;
}) {
  const [opened, setOpened] = useState(false);
  const bodyId = useId();
  const headingId = useId();
  const pin = usePinEvidence(runId);
  const unpin = useUnpinEvidence(runId);
  const lines = artifactLines(artifact.content);
  const title = artifact.title ?? KIND_LABELS[artifact.kind];
  const wholePin = pinned.get(pinKey(stepId, artifact.index, null));
  // A search opens every artifact it found, so the matching lines are in view.
  const expanded = opened || term.length > 0;
  const busy = pin.isPending || unpin.isPending;
  const error = pin.error ?? unpin.error;

  const toggleLine = (line: number | null) => {
    const existing = pinned.get(pinKey(stepId, artifact.index, line));
    if (existing) unpin.mutate(existing.id);
    else pin.mutate({ stepId, artifactIndex: artifact.index, ...(line === null ? {} : { line }) });
  };

  return (
    <Paper component="article" withBorder radius="md" aria-labelledby={headingId} style={{ overflow: 'hidden' }}>
      {artifact.tlp && <TlpBanner label={artifact.tlp} />}
      <Stack gap="xs" p="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start" justify="space-between">
          <Box miw={0}>
            <Title order={4} size="h6" id={headingId} style={{ overflowWrap: 'anywhere' }}>
              <Highlight component="span" highlight={term} inherit>
                {title}
              </Highlight>
            </Title>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {[KIND_LABELS[artifact.kind], artifact.source, artifact.date].filter(Boolean).join(' · ')}
            </Text>
          </Box>
          {artifact.admiralty && <AdmiraltyBadge code={artifact.admiralty} />}
        </Group>
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="default"
            aria-expanded={expanded}
            aria-controls={bodyId}
            disabled={term.length > 0}
            onClick={() => setOpened((value) => !value)}
          >
            {expanded ? 'Hide text' : `Show text (${plural(lines.length, 'line')})`}
          </Button>
          <Button
            size="compact-sm"
            variant={wholePin ? 'light' : 'subtle'}
            leftSection={wholePin ? <IconPinnedOff size={14} aria-hidden /> : <IconPin size={14} aria-hidden />}
            aria-label={wholePin ? `Unpin ${title}` : `Pin ${title}`}
            disabled={busy}
            onClick={() => toggleLine(null)}
          >
            {wholePin ? 'Unpin' : 'Pin'}
          </Button>
        </Group>
        {error && (
          <Text size="xs" c="red" role="alert">
            {error.message}
          </Text>
        )}
        <Collapse expanded={expanded} id={bodyId}>
          <Stack gap="xs">
            <ol className={classes.lines} aria-label={`Lines of ${title}`}>
              {lines.map((text, index) => {
                const line = index + 1;
                const linePin = pinned.get(pinKey(stepId, artifact.index, line));
                const blank = !text.trim();
                return (
                  <li key={index} className={classes.line} data-pinned={linePin ? true : undefined}>
                    <span className={classes.lineNumber} aria-hidden>
                      {line}
                    </span>
                    <Highlight component="span" highlight={term} className={classes.lineText} inherit>
                      {text || ' '}
                    </Highlight>
                    {blank ? (
                      <span />
                    ) : (
                      <ActionIcon
                        size="sm"
                        variant={linePin ? 'filled' : 'subtle'}
                        color={linePin ? 'yellow.8' : 'gray'}
                        aria-label={linePin ? `Unpin line ${line}` : `Pin line ${line}`}
                        aria-pressed={Boolean(linePin)}
                        disabled={busy}
                        onClick={() => toggleLine(line)}
                      >
                        {linePin ? <IconPinFilled size={14} aria-hidden /> : <IconPin size={14} aria-hidden />}
                      </ActionIcon>
                    )}
                  </li>
                );
              })}
            </ol>
            {artifact.indicators && artifact.indicators.length > 0 && (
              <Stack gap={4}>
                <Text size="xs" fw={700}>
                  Indicators
                </Text>
                <ul className={classes.plainList}>
                  {artifact.indicators.map((indicator, index) => (
                    <Text component="li" size="xs" key={index} style={{ overflowWrap: 'anywhere' }}>
                      <Text span size="xs" fw={700} tt="uppercase">
                        {indicator.type}
                      </Text>{' '}
                      <Highlight component="span" highlight={term} ff="monospace" size="xs">
                        {indicator.value}
                      </Highlight>
                      {indicator.context && ` (${indicator.context})`}
                    </Text>
                  ))}
                </ul>
              </Stack>
            )}
          </Stack>
        </Collapse>
      </Stack>
    </Paper>
  );
}

/** The evidence board: what the trainee pinned, oldest first, each with where it came from. */
function EvidenceBoard({ runId, pins }: { runId: string; pins: RunPin[] }) {
  const unpin = useUnpinEvidence(runId);
  if (pins.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing pinned yet. Pin an artifact, or a line of it, from the Artifacts tab to keep it at hand for later steps.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {unpin.error && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {unpin.error.message}
        </Alert>
      )}
      <Stack component="ul" gap="sm" className={classes.plainList} aria-label="Evidence board">
        {pins.map((pin) => (
          <Paper component="li" withBorder radius="md" p="sm" key={pin.id}>
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Stack gap={4} miw={0}>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {pin.stepTitle} · {pin.artifactTitle}
                  {pin.line !== null && ` · line ${pin.line}`}
                </Text>
                <Text className={classes.quote}>{pin.quote}</Text>
              </Stack>
              <Button
                size="compact-sm"
                variant="subtle"
                color="gray"
                leftSection={<IconPinnedOff size={14} aria-hidden />}
                aria-label={`Unpin ${pin.line === null ? pin.artifactTitle : `line ${pin.line} of ${pin.artifactTitle}`}`}
                disabled={unpin.isPending}
                onClick={() => unpin.mutate(pin.id)}
              >
                Unpin
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
