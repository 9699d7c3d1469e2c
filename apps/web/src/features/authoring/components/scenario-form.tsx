import { deriveScenarioId, SCENARIO_TYPES, type ScenarioSource } from '@tradecraft/shared';
import { Autocomplete, Group, NumberInput, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { memo } from 'react';
import type { DraftScenario } from '../lib/draft';
import { removeAt, replaceAt } from '../lib/draft';
import { AddButton, ItemControls, ListProblem, Pair, numberOrUndefined, ProblemsContext, useField } from './form-bits';

const DIFFICULTIES = [
  { value: '1', label: '1 · Novice' },
  { value: '2', label: '2 · Beginner' },
  { value: '3', label: '3 · Intermediate' },
  { value: '4', label: '4 · Advanced' },
  { value: '5', label: '5 · Expert' },
];

function Fields({
  draft,
  idLocked,
  onChange,
}: {
  draft: DraftScenario;
  idLocked: boolean;
  onChange: (patch: Partial<DraftScenario>) => void;
}) {
  const id = useField('id');
  const name = useField('name');
  const type = useField('type');
  const difficulty = useField('difficulty');
  const description = useField('description');
  const hintCost = useField('hint_cost');
  const sources = draft.sources ?? [];
  return (
    <Stack gap="xs">
      <Pair>
        <TextInput
          label="Scenario id"
          description={idLocked ? 'Fixed once the scenario exists' : 'a-z, 0-9 and -; empty: made from the name'}
          placeholder={draft.name.trim() ? deriveScenarioId(draft.name) : 'phishing-invoice'}
          ff="monospace"
          readOnly={idLocked}
          value={draft.id ?? ''}
          onChange={(e) => onChange({ id: e.currentTarget.value || undefined })}
          {...id}
        />
        <TextInput
          label="Name"
          value={draft.name}
          onChange={(e) => onChange({ name: e.currentTarget.value })}
          {...name}
        />
      </Pair>
      <Pair>
        <Autocomplete
          label="Type"
          description="One of the six is drawn in its colour; any other is grey"
          data={[...SCENARIO_TYPES]}
          value={draft.type}
          onChange={(value) => onChange({ type: value })}
          {...type}
        />
        <Select
          label="Difficulty"
          data={DIFFICULTIES}
          value={String(draft.difficulty)}
          allowDeselect={false}
          onChange={(value) => value && onChange({ difficulty: Number(value) })}
          {...difficulty}
        />
      </Pair>
      <Textarea
        label="Description"
        description="The summary on the scenario card (at most 400 characters)"
        autosize
        minRows={2}
        value={draft.description}
        onChange={(e) => onChange({ description: e.currentTarget.value })}
        {...description}
      />
      <NumberInput
        label="Hint cost"
        description="What a hint opened before answering costs, 0 to 1 (empty: 0.25)"
        min={0}
        max={1}
        step={0.05}
        decimalScale={3}
        value={draft.hint_cost ?? ''}
        onChange={(value) => onChange({ hint_cost: numberOrUndefined(value) })}
        {...hintCost}
      />
      <Text size="sm" c="dimmed">
        A completed run passes at 70 %; the checker makes sure the best answers reach it.
      </Text>
      <Title order={2} size="h5">
        Sources
      </Title>
      <ListProblem path="sources" />
      {sources.map((source, index) => (
        <SourceRow
          key={index}
          index={index}
          count={sources.length}
          source={source}
          onChange={(next) => onChange({ sources: replaceAt(sources, index, next) })}
          onRemove={(i) => onChange({ sources: removeAt(sources, i) })}
        />
      ))}
      <AddButton
        label="Add source"
        disabled={sources.length >= 10}
        onClick={() => onChange({ sources: [...sources, { title: '', url: '' }] })}
      />
    </Stack>
  );
}

function SourceRow({
  index,
  count,
  source,
  onChange,
  onRemove,
}: {
  index: number;
  count: number;
  source: ScenarioSource;
  onChange: (source: ScenarioSource) => void;
  onRemove: (index: number) => void;
}) {
  const title = useField(`sources[${index}].title`);
  const url = useField(`sources[${index}].url`);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap" data-field={`sources[${index}]`}>
      <TextInput
        label={`Source ${index + 1} title`}
        style={{ flex: 1 }}
        value={source.title}
        onChange={(e) => onChange({ ...source, title: e.currentTarget.value })}
        {...title}
      />
      <TextInput
        label={`Source ${index + 1} address`}
        placeholder="https://"
        style={{ flex: 1 }}
        value={source.url}
        onChange={(e) => onChange({ ...source, url: e.currentTarget.value })}
        {...url}
      />
      <ItemControls index={index} count={count} noun="source" onRemove={onRemove} />
    </Group>
  );
}

/** The scenario's own fields: id, name, type, difficulty, description, hint cost, sources. */
export const ScenarioForm = memo(function ScenarioForm({
  draft,
  idLocked,
  problems,
  onChange,
}: {
  draft: DraftScenario;
  idLocked: boolean;
  problems: ReadonlyMap<string, string[]>;
  onChange: (patch: Partial<DraftScenario>) => void;
}) {
  return (
    <ProblemsContext.Provider value={problems}>
      <Stack data-field="" tabIndex={-1} component="section" aria-label="Scenario fields">
        <Fields draft={draft} idLocked={idLocked} onChange={onChange} />
      </Stack>
    </ProblemsContext.Provider>
  );
});
