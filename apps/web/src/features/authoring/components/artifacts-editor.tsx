import {
  ADMIRALTY_PATTERN,
  ARTIFACT_KINDS,
  TLP_LABELS,
  type PlayerArtifact,
  type ScenarioArtifact,
} from '@tradecraft/shared';
import { Button, Collapse, Group, Paper, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { ArtifactCard } from '../../../ui/player/artifacts/artifact-card';
import { moveItem, removeAt, replaceAt } from '../lib/draft';
import { AddButton, ItemControls, ListProblem, Pair, useField } from './form-bits';

const ARTIFACT_KIND_LABELS: Record<(typeof ARTIFACT_KINDS)[number], string> = {
  report: 'Report',
  'forum-post': 'Forum post',
  feed: 'Feed entry',
  log: 'Log',
  email: 'Email',
  chat: 'Chat',
  other: 'Other',
  dns: 'Passive DNS',
  whois: 'WHOIS record',
  stix: 'STIX 2.1 (JSON)',
};

/** The artifact as the player draws it (empty optionals left out; a grade that is not one yet is not drawn). */
export function toPreviewArtifact(artifact: ScenarioArtifact, hideGrade: boolean): PlayerArtifact {
  return {
    kind: artifact.kind,
    ...(artifact.title?.trim() ? { title: artifact.title } : {}),
    ...(artifact.source?.trim() ? { source: artifact.source } : {}),
    ...(artifact.date?.trim() ? { date: artifact.date } : {}),
    content: artifact.content,
    ...(artifact.indicators?.length ? { indicators: artifact.indicators } : {}),
    ...(artifact.tlp ? { tlp: artifact.tlp } : {}),
    ...(artifact.admiralty && ADMIRALTY_PATTERN.test(artifact.admiralty) && !hideGrade
      ? { admiralty: artifact.admiralty }
      : {}),
  };
}

function ArtifactFields({
  artifact,
  index,
  count,
  toGrade,
  onChange,
  onMove,
  onRemove,
}: {
  artifact: ScenarioArtifact;
  index: number;
  count: number;
  toGrade: boolean;
  onChange: (artifact: ScenarioArtifact) => void;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}) {
  const [preview, setPreview] = useState(false);
  const at = (field: string) => `artifacts[${index}].${field}`;
  const kind = useField(at('kind'));
  const title = useField(at('title'));
  const source = useField(at('source'));
  const date = useField(at('date'));
  const content = useField(at('content'));
  const tlp = useField(at('tlp'));
  const admiralty = useField(at('admiralty'));
  const set = (patch: Partial<ScenarioArtifact>) => onChange({ ...artifact, ...patch });
  const indicators = artifact.indicators ?? [];
  return (
    <Paper withBorder radius="md" p="sm" data-field={`artifacts[${index}]`} tabIndex={-1}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h6">
            Artifact {index + 1}
            {toGrade ? ' (the one to grade)' : ''}
          </Title>
          <ItemControls index={index} count={count} noun="artifact" onMove={onMove} onRemove={onRemove} />
        </Group>
        <Pair>
          <Select
            label="Kind"
            aria-label={`Artifact ${index + 1} kind`}
            data={ARTIFACT_KINDS.map((value) => ({ value, label: ARTIFACT_KIND_LABELS[value] }))}
            value={artifact.kind}
            allowDeselect={false}
            onChange={(value) => value && set({ kind: value as ScenarioArtifact['kind'] })}
            {...kind}
          />
          <TextInput
            label="Title"
            aria-label={`Artifact ${index + 1} title`}
            value={artifact.title ?? ''}
            onChange={(e) => set({ title: e.currentTarget.value })}
            {...title}
          />
        </Pair>
        <Pair>
          <TextInput
            label="Source"
            aria-label={`Artifact ${index + 1} source`}
            value={artifact.source ?? ''}
            onChange={(e) => set({ source: e.currentTarget.value })}
            {...source}
          />
          <TextInput
            label="Date"
            aria-label={`Artifact ${index + 1} date`}
            value={artifact.date ?? ''}
            onChange={(e) => set({ date: e.currentTarget.value })}
            {...date}
          />
        </Pair>
        <Pair>
          <Select
            label="TLP"
            aria-label={`Artifact ${index + 1} TLP`}
            placeholder="None"
            clearable
            data={[...TLP_LABELS]}
            value={artifact.tlp ?? null}
            onChange={(value) => set({ tlp: (value ?? undefined) as ScenarioArtifact['tlp'] })}
            {...tlp}
          />
          <TextInput
            label="Admiralty grade"
            aria-label={`Artifact ${index + 1} admiralty grade`}
            placeholder="B2"
            value={artifact.admiralty ?? ''}
            onChange={(e) => set({ admiralty: e.currentTarget.value.toUpperCase() || undefined })}
            {...admiralty}
          />
        </Pair>
        <Textarea
          label="Content"
          aria-label={`Artifact ${index + 1} content`}
          description="Shown as written: line breaks and spacing are kept."
          autosize
          minRows={3}
          maxRows={14}
          ff="monospace"
          value={artifact.content}
          onChange={(e) => set({ content: e.currentTarget.value })}
          {...content}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Indicators
          </Text>
          <ListProblem path={at('indicators')} />
          {indicators.map((indicator, indicatorIndex) => (
            <Group key={indicatorIndex} gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                label="Type"
                size="xs"
                w={90}
                value={indicator.type}
                onChange={(e) =>
                  set({
                    indicators: replaceAt(indicators, indicatorIndex, { ...indicator, type: e.currentTarget.value }),
                  })
                }
                data-field={at(`indicators[${indicatorIndex}].type`)}
              />
              <TextInput
                label="Value"
                size="xs"
                style={{ flex: 1 }}
                value={indicator.value}
                onChange={(e) =>
                  set({
                    indicators: replaceAt(indicators, indicatorIndex, { ...indicator, value: e.currentTarget.value }),
                  })
                }
                data-field={at(`indicators[${indicatorIndex}].value`)}
              />
              <TextInput
                label="Context"
                size="xs"
                style={{ flex: 1 }}
                value={indicator.context ?? ''}
                onChange={(e) =>
                  set({
                    indicators: replaceAt(indicators, indicatorIndex, {
                      ...indicator,
                      context: e.currentTarget.value || undefined,
                    }),
                  })
                }
              />
              <ItemControls
                index={indicatorIndex}
                count={indicators.length}
                noun={`indicator of artifact ${index + 1}, indicator`}
                onRemove={(i) => set({ indicators: removeAt(indicators, i) })}
              />
            </Group>
          ))}
          <AddButton
            label="Add indicator"
            disabled={indicators.length >= 50}
            onClick={() => set({ indicators: [...indicators, { type: 'domain', value: '' }] })}
          />
        </Stack>
        <Button
          variant="subtle"
          size="xs"
          leftSection={preview ? <IconEyeOff size={14} aria-hidden /> : <IconEye size={14} aria-hidden />}
          onClick={() => setPreview((shown) => !shown)}
          aria-expanded={preview}
          style={{ alignSelf: 'flex-start' }}
        >
          {preview ? 'Hide the trainee’s view' : 'Show as the trainee sees it'}
        </Button>
        <Collapse expanded={preview}>
          {preview && artifact.content !== '' && (
            <ArtifactCard artifact={toPreviewArtifact(artifact, toGrade)} toGrade={toGrade} />
          )}
          {preview && artifact.content === '' && (
            <Text size="sm" c="dimmed">
              Write the content to see it drawn.
            </Text>
          )}
        </Collapse>
      </Stack>
    </Paper>
  );
}

/** A step's intel: each artifact's fields, its indicators, and a preview drawn by the player's own card. */
export function ArtifactsEditor({
  artifacts,
  gradedIndex,
  onChange,
}: {
  artifacts: ScenarioArtifact[];
  gradedIndex: number | null;
  onChange: (artifacts: ScenarioArtifact[] | undefined) => void;
}) {
  return (
    <Stack gap="sm">
      <ListProblem path="artifacts" />
      {artifacts.map((artifact, index) => (
        <ArtifactFields
          key={index}
          artifact={artifact}
          index={index}
          count={artifacts.length}
          toGrade={gradedIndex === index}
          onChange={(next) => onChange(replaceAt(artifacts, index, next))}
          onMove={(from, to) => onChange(moveItem(artifacts, from, to))}
          onRemove={(i) => {
            const next = removeAt(artifacts, i);
            onChange(next.length > 0 ? next : undefined);
          }}
        />
      ))}
      <AddButton
        label="Add artifact"
        disabled={artifacts.length >= 8}
        onClick={() => onChange([...artifacts, { kind: 'report', content: '' }])}
      />
    </Stack>
  );
}
