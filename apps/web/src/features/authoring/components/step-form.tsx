import {
  DEFAULT_SKILL_BY_KIND,
  SKILL_LABELS,
  SKILLS,
  STEP_KIND_LABELS,
  STEP_KINDS,
  type Skill,
  type StepKind,
} from '@tradecraft/shared';
import { Divider, NumberInput, Select, Stack, Switch, TextInput, Textarea, Title } from '@mantine/core';
import { memo } from 'react';
import { changeKind, type DraftStep } from '../lib/draft';
import { ArtifactsEditor } from './artifacts-editor';
import { numberOrUndefined, Pair, ProblemsContext, useField } from './form-bits';
import {
  AchFields,
  EstimateFields,
  ExtractFields,
  FlowFields,
  GradeSourceFields,
  OptionFields,
  WriteFields,
  type StepPatch,
} from './kind-fields';
import { TechniquePicker } from './technique-picker';

function KindFields({ step, steps, onEdit }: { step: DraftStep; steps: readonly DraftStep[]; onEdit: StepPatch }) {
  switch (step.kind) {
    case 'choice':
    case 'multi':
    case 'rank':
      return <OptionFields step={step} steps={steps} onEdit={onEdit} />;
    case 'estimate':
      return <EstimateFields step={step} onEdit={onEdit} />;
    case 'grade-source':
      return <GradeSourceFields step={step} onEdit={onEdit} />;
    case 'extract':
      return <ExtractFields step={step} onEdit={onEdit} />;
    case 'ach':
      return <AchFields step={step} onEdit={onEdit} />;
    case 'write':
      return <WriteFields step={step} onEdit={onEdit} />;
  }
}

function CommonFields({ step, onEdit }: { step: DraftStep; onEdit: StepPatch }) {
  const kind = useField('kind');
  const id = useField('id');
  const title = useField('title');
  const description = useField('description');
  const hint = useField('hint');
  const hintCost = useField('hint_cost');
  const feedback = useField('feedback');
  const skill = useField('skill');
  return (
    <Stack gap="xs">
      <Pair>
        <Select
          label="Kind"
          data={STEP_KINDS.map((value) => ({ value, label: `${STEP_KIND_LABELS[value]} (${value})` }))}
          value={step.kind}
          allowDeselect={false}
          onChange={(value) => value && onEdit(changeKind(step, value as StepKind))}
          {...kind}
        />
        <TextInput
          label="Step id"
          description="a-z, 0-9 and -; renaming updates every way that leads here"
          value={step.id}
          onChange={(e) => onEdit({ id: e.currentTarget.value })}
          ff="monospace"
          {...id}
        />
      </Pair>
      <TextInput
        label="Title"
        value={step.title}
        onChange={(e) => onEdit({ title: e.currentTarget.value })}
        {...title}
      />
      <Textarea
        label="Description"
        description="The situation the trainee reads"
        autosize
        minRows={3}
        maxRows={12}
        value={step.description}
        onChange={(e) => onEdit({ description: e.currentTarget.value })}
        {...description}
      />
      <TechniquePicker value={step.mitre_attack} onChange={(value) => onEdit({ mitre_attack: value })} />
      <Pair>
        <Select
          label="Skill trained"
          data={SKILLS.map((value) => ({ value, label: SKILL_LABELS[value] }))}
          placeholder={`${SKILL_LABELS[DEFAULT_SKILL_BY_KIND[step.kind]]} (the kind's default)`}
          clearable
          value={step.skill ?? null}
          onChange={(value) => onEdit({ skill: (value ?? undefined) as Skill | undefined })}
          {...skill}
        />
        <Switch
          mt={30}
          label="Scored"
          description="Off for a briefing or a consequence to read"
          checked={step.scored !== false}
          onChange={(e) => onEdit({ scored: e.currentTarget.checked ? undefined : false })}
          data-field="scored"
        />
      </Pair>
      <Pair>
        <Textarea
          label="Hint"
          autosize
          minRows={1}
          value={step.hint ?? ''}
          onChange={(e) => onEdit({ hint: e.currentTarget.value })}
          {...hint}
        />
        <NumberInput
          label="Hint cost"
          description="0 to 1; empty: the scenario's"
          min={0}
          max={1}
          step={0.05}
          decimalScale={3}
          value={step.hint_cost ?? ''}
          onChange={(value) => onEdit({ hint_cost: numberOrUndefined(value) })}
          {...hintCost}
        />
      </Pair>
      <Textarea
        label="Feedback"
        description="The explanation shown after the first answer"
        autosize
        minRows={1}
        value={step.feedback ?? ''}
        onChange={(e) => onEdit({ feedback: e.currentTarget.value })}
        {...feedback}
      />
    </Stack>
  );
}

interface StepFormProps {
  step: DraftStep;
  index: number;
  steps: readonly DraftStep[];
  problems: ReadonlyMap<string, string[]>;
  onEdit: (index: number, patch: Partial<DraftStep>) => void;
}

/** Every field of the selected step, by its kind; each shows the checker's problem at its place. */
export const StepForm = memo(function StepForm({ step, index, steps, problems, onEdit }: StepFormProps) {
  const edit: StepPatch = (patch) => onEdit(index, patch);
  return (
    <ProblemsContext.Provider value={problems}>
      <Stack gap="md" data-field="" tabIndex={-1} aria-label={`Step ${index + 1}`} component="section">
        <CommonFields step={step} onEdit={edit} />
        <Divider />
        <KindFields step={step} steps={steps} onEdit={edit} />
        {step.kind !== 'choice' && (
          <>
            <Divider />
            <FlowFields step={step} steps={steps} onEdit={edit} />
          </>
        )}
        <Divider />
        <Title order={2} size="h5">
          Artifacts
        </Title>
        <ArtifactsEditor
          artifacts={step.artifacts ?? []}
          gradedIndex={step.kind === 'grade-source' ? (step.artifact ?? null) : null}
          onChange={(artifacts) => edit({ artifacts })}
        />
      </Stack>
    </ProblemsContext.Provider>
  );
});
