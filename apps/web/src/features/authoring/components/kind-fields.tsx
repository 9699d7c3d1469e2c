import {
  ACH_MARK_LABELS,
  ACH_MARKS,
  CREDIBILITY_GRADES,
  CREDIBILITY_LABELS,
  ESTIMATE_TERM_INFO,
  ESTIMATE_TERMS,
  EXTRACT_FIELD_TYPES,
  RELIABILITY_GRADES,
  RELIABILITY_LABELS,
  type AchMark,
  type EstimateTerm,
  type ExtractFieldType,
  type ReliabilityGrade,
} from '@tradecraft/shared';
import {
  Checkbox,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Paper,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import {
  editOptions,
  MAX_OPTIONS,
  MIN_OPTIONS,
  moveItem,
  removeAt,
  replaceAt,
  type DraftOption,
  type DraftStep,
} from '../lib/draft';
import { useId } from 'react';
import { AddButton, ItemControls, ListProblem, Pair, numberOrUndefined, useField } from './form-bits';

export type StepPatch = (patch: Partial<DraftStep>) => void;

/** The choices of a "leads to" select: the following step, Retry (choice only), every step by id and title. */
export function nextStepData(steps: readonly DraftStep[], current: string | null | undefined, withRetry: boolean) {
  const items = [{ value: FOLLOWING, label: 'The following step (or finish after the last)' }];
  if (withRetry) items.push({ value: RETRY, label: 'Retry: stay on this step' });
  const seen = new Set<string>();
  for (const step of steps) {
    if (step.id === '' || seen.has(step.id)) continue;
    seen.add(step.id);
    items.push({ value: step.id, label: `${step.id}${step.title.trim() ? ` · ${step.title.trim()}` : ''}` });
  }
  if (typeof current === 'string' && current !== '' && !seen.has(current)) {
    items.push({ value: current, label: `${current} (no such step)` });
  }
  return items;
}

export const FOLLOWING = '__following__';
export const RETRY = '__retry__';

export const toSelectValue = (next: string | null | undefined) =>
  next === null ? RETRY : next === undefined || next === '' ? FOLLOWING : next;
export const fromSelectValue = (value: string | null): string | null | undefined =>
  value === RETRY ? null : value === FOLLOWING || value === null ? undefined : value;

function OptionRow({
  step,
  index,
  steps,
  onChange,
  onEdit,
}: {
  step: DraftStep;
  index: number;
  steps: readonly DraftStep[];
  onChange: (option: DraftOption) => void;
  onEdit: StepPatch;
}) {
  const options = step.options ?? [];
  const option = options[index] ?? { text: '' };
  const at = (field: string) => `options[${index}].${field}`;
  const text = useField(at('text'));
  const next = useField(at('next_step'));
  const credit = useField(at('credit'));
  const feedback = useField(at('feedback'));
  const remove = (i: number) => onEdit(editOptions(step, { type: 'remove', index: i }));
  const move = (from: number, to: number) => onEdit(editOptions(step, { type: 'move', from, to }));
  const label = step.kind === 'rank' ? `Item ${index + 1}` : `Option ${index + 1}`;
  return (
    <Paper withBorder radius="sm" p="xs" data-field={`options[${index}]`} tabIndex={-1}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" fw={600}>
              {label}
            </Text>
            {step.kind === 'choice' && (
              <Radio
                value={String(index)}
                label="Correct"
                aria-label={`Option ${index + 1} is the correct one`}
                data-field={index === 0 ? 'correct_option' : undefined}
              />
            )}
            {step.kind === 'multi' && (
              <Checkbox
                label="Applies"
                aria-label={`Option ${index + 1} applies`}
                checked={option.correct === true}
                onChange={(e) => onChange({ ...option, correct: e.currentTarget.checked || undefined })}
                data-field={at('correct')}
              />
            )}
          </Group>
          <ItemControls
            index={index}
            count={options.length}
            noun={step.kind === 'rank' ? 'item' : 'option'}
            min={MIN_OPTIONS[step.kind] ?? 0}
            onMove={move}
            onRemove={remove}
          />
        </Group>
        <Textarea
          aria-label={`${label} text`}
          placeholder="What the trainee chooses"
          autosize
          minRows={1}
          value={option.text}
          onChange={(e) => onChange({ ...option, text: e.currentTarget.value })}
          {...text}
        />
        {step.kind === 'choice' && (
          <Pair>
            <Select
              label="Leads to"
              data={nextStepData(steps, option.next_step, true)}
              value={toSelectValue(option.next_step)}
              allowDeselect={false}
              searchable
              onChange={(value) => onChange({ ...option, next_step: fromSelectValue(value) })}
              {...next}
            />
            <NumberInput
              label="Credit (second best)"
              description="0 to 1, below the correct option's 1"
              min={0}
              max={1}
              step={0.25}
              decimalScale={3}
              value={option.credit ?? ''}
              onChange={(value) => onChange({ ...option, credit: numberOrUndefined(value) })}
              {...credit}
            />
          </Pair>
        )}
        <TextInput
          label="Feedback"
          placeholder="Shown after the answer"
          size="xs"
          value={option.feedback ?? ''}
          onChange={(e) => onChange({ ...option, feedback: e.currentTarget.value })}
          {...feedback}
        />
      </Stack>
    </Paper>
  );
}

/** choice, multi and rank: the options (rank: in the right order), each with its own fields. */
export function OptionFields({
  step,
  steps,
  onEdit,
}: {
  step: DraftStep;
  steps: readonly DraftStep[];
  onEdit: StepPatch;
}) {
  const options = step.options ?? [];
  const correct = useField('correct_option');
  const list = (
    <Stack gap="xs">
      {options.map((_option, index) => (
        <OptionRow
          key={index}
          step={step}
          index={index}
          steps={steps}
          onEdit={onEdit}
          onChange={(option) => onEdit({ options: replaceAt(options, index, option) })}
        />
      ))}
    </Stack>
  );
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        {step.kind === 'rank' ? 'Items, in the right order (most important first)' : 'Options'}
      </Title>
      <ListProblem path="options" />
      {step.kind === 'choice' ? (
        <Radio.Group
          value={step.correct_option === undefined ? null : String(step.correct_option)}
          onChange={(value) => onEdit({ correct_option: Number(value) })}
          error={correct.error}
          aria-label="The correct option"
        >
          {list}
        </Radio.Group>
      ) : (
        list
      )}
      <AddButton
        label={step.kind === 'rank' ? 'Add item' : 'Add option'}
        disabled={options.length >= (MAX_OPTIONS[step.kind] ?? 8)}
        onClick={() => onEdit(editOptions(step, { type: 'add' }))}
      />
    </Stack>
  );
}

export function EstimateFields({ step, onEdit }: { step: DraftStep; onEdit: StepPatch }) {
  const statement = useField('statement');
  const accept = useField('accept');
  const outcome = useField('outcome');
  const outcomeLabel = useId();
  return (
    <Stack gap="xs">
      <Textarea
        label="Statement"
        description="The proposition the trainee judges"
        autosize
        minRows={2}
        value={step.statement ?? ''}
        onChange={(e) => onEdit({ statement: e.currentTarget.value })}
        {...statement}
      />
      <Switch
        label="Also ask how confident they are"
        checked={step.ask_confidence === true}
        onChange={(e) => onEdit({ ask_confidence: e.currentTarget.checked || undefined })}
      />
      <MultiSelect
        label="Defensible terms (full credit)"
        searchable
        data={ESTIMATE_TERMS.map((term) => ({
          value: term,
          label: `${ESTIMATE_TERM_INFO[term].label} (${ESTIMATE_TERM_INFO[term].range})`,
        }))}
        value={step.accept ?? []}
        onChange={(values) =>
          onEdit({ accept: ESTIMATE_TERMS.filter((term) => values.includes(term)) as EstimateTerm[] })
        }
        {...accept}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id={outcomeLabel}>
          What happened: the statement turned out
        </Text>
        <SegmentedControl
          aria-labelledby={outcomeLabel}
          data={[
            { value: 'true', label: 'True' },
            { value: 'false', label: 'False' },
          ]}
          value={step.outcome === false ? 'false' : 'true'}
          onChange={(value) => onEdit({ outcome: value === 'true' })}
          data-field={outcome['data-field']}
          style={{ alignSelf: 'flex-start' }}
        />
        {outcome.error && (
          <Text size="sm" c="red">
            {outcome.error}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}

export function GradeSourceFields({ step, onEdit }: { step: DraftStep; onEdit: StepPatch }) {
  const artifact = useField('artifact');
  const reliability = useField('reliability');
  const credibility = useField('credibility');
  const artifacts = step.artifacts ?? [];
  const artifactData = artifacts.map((item, index) => ({
    value: String(index),
    label: `Artifact ${index + 1}${item.title ? `: ${item.title}` : ''}`,
  }));
  if (step.artifact !== undefined && !artifactData.some((item) => item.value === String(step.artifact))) {
    artifactData.push({ value: String(step.artifact), label: `Artifact ${step.artifact + 1} (does not exist)` });
  }
  return (
    <Stack gap="xs">
      <Select
        label="The artifact to grade"
        data={artifactData}
        value={step.artifact === undefined ? null : String(step.artifact)}
        allowDeselect={false}
        onChange={(value) => value !== null && onEdit({ artifact: Number(value) })}
        {...artifact}
      />
      <Pair>
        <Select
          label="Reliability (key)"
          data={RELIABILITY_GRADES.map((grade) => ({ value: grade, label: `${grade}: ${RELIABILITY_LABELS[grade]}` }))}
          value={step.reliability ?? null}
          allowDeselect={false}
          onChange={(value) => value && onEdit({ reliability: value as ReliabilityGrade })}
          {...reliability}
        />
        <Select
          label="Credibility (key)"
          data={CREDIBILITY_GRADES.map((grade) => ({
            value: String(grade),
            label: `${grade}: ${CREDIBILITY_LABELS[grade]}`,
          }))}
          value={step.credibility === undefined ? null : String(step.credibility)}
          allowDeselect={false}
          onChange={(value) => value && onEdit({ credibility: Number(value) })}
          {...credibility}
        />
      </Pair>
    </Stack>
  );
}

function ExtractFieldRow({ step, index, onEdit }: { step: DraftStep; index: number; onEdit: StepPatch }) {
  const fields = step.fields ?? [];
  const field = fields[index] ?? { label: '', type: 'text' as const, accept: [] };
  const label = useField(`fields[${index}].label`);
  const type = useField(`fields[${index}].type`);
  const accept = useField(`fields[${index}].accept`);
  const set = (patch: Partial<typeof field>) => onEdit({ fields: replaceAt(fields, index, { ...field, ...patch }) });
  return (
    <Paper withBorder radius="sm" p="xs" data-field={`fields[${index}]`} tabIndex={-1}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" fw={600}>
            Field {index + 1}
          </Text>
          <ItemControls
            index={index}
            count={fields.length}
            noun="field"
            min={1}
            onMove={(from, to) => onEdit({ fields: moveItem(fields, from, to) })}
            onRemove={(i) => onEdit({ fields: removeAt(fields, i) })}
          />
        </Group>
        <Pair>
          <TextInput
            label="Label"
            value={field.label}
            onChange={(e) => set({ label: e.currentTarget.value })}
            {...label}
          />
          <Select
            label="Type"
            data={[...EXTRACT_FIELD_TYPES]}
            value={field.type}
            allowDeselect={false}
            onChange={(value) => value && set({ type: value as ExtractFieldType })}
            {...type}
          />
        </Pair>
        <TagsInput
          label="Accepted values"
          description="Press Enter after each; answers are refanged and normalised before comparing"
          value={field.accept}
          onChange={(accept) => set({ accept })}
          {...accept}
        />
      </Stack>
    </Paper>
  );
}

export function ExtractFields({ step, onEdit }: { step: DraftStep; onEdit: StepPatch }) {
  const fields = step.fields ?? [];
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        Fields to fill
      </Title>
      <ListProblem path="fields" />
      {fields.map((_field, index) => (
        <ExtractFieldRow key={index} step={step} index={index} onEdit={onEdit} />
      ))}
      <AddButton
        label="Add field"
        disabled={fields.length >= 6}
        onClick={() => onEdit({ fields: [...fields, { label: '', type: 'text', accept: [] }] })}
      />
    </Stack>
  );
}

export function AchFields({ step, onEdit }: { step: DraftStep; onEdit: StepPatch }) {
  const hypotheses = step.hypotheses ?? [];
  const evidence = step.evidence ?? [];
  const best = useField('best');
  const setHypotheses = (next: string[], rows = evidence) => onEdit({ hypotheses: next, evidence: rows });
  return (
    <Stack gap="sm">
      <Title order={2} size="h5">
        Hypotheses
      </Title>
      <ListProblem path="hypotheses" />
      {hypotheses.map((hypothesis, index) => (
        <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={`Hypothesis ${index + 1}`}
            style={{ flex: 1 }}
            value={hypothesis}
            onChange={(e) => setHypotheses(replaceAt(hypotheses, index, e.currentTarget.value))}
            data-field={`hypotheses[${index}]`}
          />
          <ItemControls
            index={index}
            count={hypotheses.length}
            noun="hypothesis"
            min={2}
            onRemove={(i) =>
              setHypotheses(
                removeAt(hypotheses, i),
                evidence.map((row) => ({ ...row, marks: removeAt(row.marks, i) })),
              )
            }
          />
        </Group>
      ))}
      <AddButton
        label="Add hypothesis"
        disabled={hypotheses.length >= 5}
        onClick={() =>
          setHypotheses(
            [...hypotheses, ''],
            evidence.map((row) => ({ ...row, marks: [...row.marks, 'N' as AchMark] })),
          )
        }
      />
      <Select
        label="Most likely hypothesis (key)"
        data={hypotheses.map((hypothesis, index) => ({
          value: String(index),
          label: `${index + 1}. ${hypothesis || '(empty)'}`,
        }))}
        value={step.best === undefined ? null : String(step.best)}
        allowDeselect={false}
        onChange={(value) => value !== null && onEdit({ best: Number(value) })}
        {...best}
      />
      <Title order={2} size="h5">
        Evidence and its marks (key)
      </Title>
      <ListProblem path="evidence" />
      {evidence.map((row, rowIndex) => (
        <Paper key={rowIndex} withBorder radius="sm" p="xs" data-field={`evidence[${rowIndex}]`} tabIndex={-1}>
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={600}>
                Evidence {rowIndex + 1}
              </Text>
              <ItemControls
                index={rowIndex}
                count={evidence.length}
                noun="evidence row"
                min={2}
                onMove={(from, to) => onEdit({ evidence: moveItem(evidence, from, to) })}
                onRemove={(i) => onEdit({ evidence: removeAt(evidence, i) })}
              />
            </Group>
            <TextInput
              aria-label={`Evidence ${rowIndex + 1} text`}
              value={row.text}
              onChange={(e) =>
                onEdit({ evidence: replaceAt(evidence, rowIndex, { ...row, text: e.currentTarget.value }) })
              }
              data-field={`evidence[${rowIndex}].text`}
            />
            <Group gap="xs" data-field={`evidence[${rowIndex}].marks`}>
              {hypotheses.map((_hypothesis, column) => (
                <NativeSelect
                  key={column}
                  size="xs"
                  label={`H${column + 1}`}
                  aria-label={`Evidence ${rowIndex + 1} against hypothesis ${column + 1}`}
                  data={ACH_MARKS.map((value) => ({ value, label: `${value}: ${ACH_MARK_LABELS[value]}` }))}
                  value={row.marks[column] ?? 'N'}
                  onChange={(e) => {
                    const marks = hypotheses.map((_h, i) => row.marks[i] ?? 'N') as AchMark[];
                    marks[column] = e.currentTarget.value as AchMark;
                    onEdit({ evidence: replaceAt(evidence, rowIndex, { ...row, marks }) });
                  }}
                />
              ))}
            </Group>
          </Stack>
        </Paper>
      ))}
      <AddButton
        label="Add evidence"
        disabled={evidence.length >= 8}
        onClick={() => onEdit({ evidence: [...evidence, { text: '', marks: hypotheses.map(() => 'N' as AchMark) }] })}
      />
    </Stack>
  );
}

export function WriteFields({ step, onEdit }: { step: DraftStep; onEdit: StepPatch }) {
  const prompt = useField('prompt');
  const maxWords = useField('max_words');
  const mustMention = useField('checks.must_mention');
  const modelAnswer = useField('model_answer');
  const autoWeight = useField('auto_weight');
  const rubric = step.rubric ?? [];
  const checks = step.checks ?? {};
  const setChecks = (patch: Partial<typeof checks>) => {
    const next = Object.fromEntries(Object.entries({ ...checks, ...patch }).filter(([, value]) => value !== undefined));
    onEdit({ checks: Object.keys(next).length > 0 ? next : undefined });
  };
  return (
    <Stack gap="xs">
      <Textarea
        label="Prompt"
        description="What to write, for whom"
        autosize
        minRows={2}
        value={step.prompt ?? ''}
        onChange={(e) => onEdit({ prompt: e.currentTarget.value })}
        {...prompt}
      />
      <Pair>
        <NumberInput
          label="Word limit"
          min={10}
          max={2000}
          value={step.max_words ?? ''}
          onChange={(value) => onEdit({ max_words: numberOrUndefined(value) })}
          {...maxWords}
        />
        <NumberInput
          label="Share from automatic checks"
          description="0 to 1 (default 0.3)"
          min={0}
          max={1}
          step={0.1}
          decimalScale={3}
          value={step.auto_weight ?? ''}
          onChange={(value) => onEdit({ auto_weight: numberOrUndefined(value) })}
          {...autoWeight}
        />
      </Pair>
      <Group gap="lg">
        <Switch
          label="Must start with a TLP marking"
          checked={checks.tlp === true}
          onChange={(e) => setChecks({ tlp: e.currentTarget.checked || undefined })}
        />
        <Switch
          label="Flag vague likelihood words"
          checked={checks.estimative_language === true}
          onChange={(e) => setChecks({ estimative_language: e.currentTarget.checked || undefined })}
        />
      </Group>
      <TagsInput
        label="Must mention"
        description="Names, indicators or technique ids (press Enter after each)"
        value={checks.must_mention ?? []}
        onChange={(values) => setChecks({ must_mention: values.length > 0 ? values : undefined })}
        {...mustMention}
      />
      <Title order={2} size="h5">
        Rubric
      </Title>
      <ListProblem path="rubric" />
      {rubric.map((criterion, index) => (
        <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={`Criterion ${index + 1}`}
            style={{ flex: 1 }}
            value={criterion.criterion}
            onChange={(e) =>
              onEdit({ rubric: replaceAt(rubric, index, { ...criterion, criterion: e.currentTarget.value }) })
            }
            data-field={`rubric[${index}].criterion`}
          />
          <NumberInput
            label="Points"
            w={80}
            min={1}
            max={100}
            value={criterion.points}
            onChange={(value) =>
              onEdit({ rubric: replaceAt(rubric, index, { ...criterion, points: numberOrUndefined(value) ?? 1 }) })
            }
            data-field={`rubric[${index}].points`}
          />
          <ItemControls
            index={index}
            count={rubric.length}
            noun="criterion"
            min={1}
            onRemove={(i) => onEdit({ rubric: removeAt(rubric, i) })}
          />
        </Group>
      ))}
      <AddButton
        label="Add criterion"
        disabled={rubric.length >= 10}
        onClick={() => onEdit({ rubric: [...rubric, { criterion: '', points: 1 }] })}
      />
      <Textarea
        label="Model answer"
        description="Shown to the trainee after they submit, and to the instructor grading"
        autosize
        minRows={3}
        value={step.model_answer ?? ''}
        onChange={(e) => onEdit({ model_answer: e.currentTarget.value })}
        {...modelAnswer}
      />
    </Stack>
  );
}

/** Kinds other than choice: where the run goes, and where a weak first answer goes instead (`below`). */
export function FlowFields({
  step,
  steps,
  onEdit,
}: {
  step: DraftStep;
  steps: readonly DraftStep[];
  onEdit: StepPatch;
}) {
  const next = useField('next_step');
  const belowCredit = useField('below.credit');
  const belowNext = useField('below.next_step');
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        Way on
      </Title>
      <Select
        label="Leads to"
        data={nextStepData(steps, step.next_step, false)}
        value={toSelectValue(step.next_step)}
        allowDeselect={false}
        searchable
        onChange={(value) => onEdit({ next_step: fromSelectValue(value) ?? undefined })}
        {...next}
      />
      <Switch
        label="A weak first answer goes elsewhere (a consequence)"
        checked={step.below !== undefined}
        onChange={(e) =>
          onEdit({
            below: e.currentTarget.checked
              ? { credit: 0.5, next_step: steps.find((candidate) => candidate.id !== step.id)?.id ?? '' }
              : undefined,
          })
        }
        data-field="below"
      />
      {step.below && (
        <Pair>
          <NumberInput
            label="Below this credit"
            min={0}
            max={1}
            step={0.25}
            decimalScale={3}
            value={step.below.credit}
            onChange={(value) =>
              step.below && onEdit({ below: { ...step.below, credit: numberOrUndefined(value) ?? 0 } })
            }
            {...belowCredit}
          />
          <Select
            label="Goes to"
            data={nextStepData(steps, step.below.next_step, false).filter((item) => item.value !== FOLLOWING)}
            value={step.below.next_step || null}
            allowDeselect={false}
            searchable
            onChange={(value) => step.below && value && onEdit({ below: { ...step.below, next_step: value } })}
            {...belowNext}
          />
        </Pair>
      )}
    </Stack>
  );
}
