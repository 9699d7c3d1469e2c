import {
  CREDIBILITY_GRADES,
  CREDIBILITY_LABELS,
  RELIABILITY_GRADES,
  RELIABILITY_LABELS,
  type CredibilityGrade,
  type ReliabilityGrade,
  type Verdict,
} from '@tradecraft/shared';
import { Box, Group, Radio, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { AnswerForm } from './answer-form';
import { VERDICT_WORDS, VerdictIcon } from '../../credit';
import { focusableScroll } from '../../focusable-scroll';

function GradePicker<G extends string>({
  label,
  description,
  grades,
  definitions,
  value,
  onChange,
  error,
  disabled,
}: {
  label: string;
  description: string;
  grades: readonly G[];
  definitions: Record<G, string>;
  value: G | null;
  onChange: (grade: G) => void;
  error?: string;
  disabled: boolean;
}) {
  return (
    <Radio.Group
      value={value}
      onChange={(next) => onChange(next as G)}
      label={label}
      description={description}
      error={error}
    >
      <Group gap="xs" mt="xs">
        {grades.map((grade) => (
          // The definition is one hover or focus away for sighted people, and part of the name for screen readers.
          <Tooltip
            key={grade}
            label={`${grade}: ${definitions[grade]}`}
            events={{ hover: true, focus: true, touch: true }}
            withArrow
          >
            <Box className={classes.gradeChoice}>
              <Radio
                value={grade}
                disabled={disabled}
                label={
                  <>
                    {grade}
                    <VisuallyHidden>: {definitions[grade]}</VisuallyHidden>
                  </>
                }
              />
            </Box>
          </Tooltip>
        ))}
      </Group>
      {value && (
        <Text size="xs" mt={6}>
          {value}: {definitions[value]}
        </Text>
      )}
    </Radio.Group>
  );
}

function AxisRow({
  axis,
  given,
  key_,
  definition,
  keyDefinition,
  verdict,
}: {
  axis: string;
  given: string;
  key_: string;
  definition: string;
  keyDefinition: string;
  verdict: Verdict;
}) {
  return (
    <Table.Tr>
      <Table.Th scope="row">{axis}</Table.Th>
      <Table.Td>
        <Group gap={6} wrap="nowrap" align="flex-start">
          <VerdictIcon verdict={verdict} size="xs" />
          <span>
            <strong>{given}</strong> {definition}
            <Text span size="xs" display="block">
              {VERDICT_WORDS[verdict]}
            </Text>
          </span>
        </Group>
      </Table.Td>
      <Table.Td>
        <strong>{key_}</strong> {keyDefinition}
      </Table.Td>
    </Table.Tr>
  );
}

/** grade-source: Admiralty reliability A-F and credibility 1-6 for the named artifact; once answered, the key per axis. */
export function GradeSourceControl({ step, result, busy, onSubmit }: ControlProps<'grade-source'>) {
  const [reliability, setReliability] = useState<ReliabilityGrade | null>(null);
  const [credibility, setCredibility] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const artifact = step.artifacts[step.artifact];
  const subject = (
    <Text size="sm">
      Grade the source of{' '}
      <strong className={classes.preWrap}>{artifact?.title ?? `intel item ${step.artifact + 1}`}</strong> (marked “To
      grade” in the intel) with the Admiralty code. Hover or focus a grade to read its definition.
    </Text>
  );

  if (!result) {
    return (
      <AnswerForm
        busy={busy}
        onSubmit={() => {
          if (!reliability || !credibility) {
            setMissing(true);
            return;
          }
          onSubmit({ reliability, credibility: Number(credibility) });
        }}
      >
        {subject}
        <GradePicker
          label="Source reliability"
          description="How far the source has been trustworthy."
          grades={RELIABILITY_GRADES}
          definitions={RELIABILITY_LABELS}
          value={reliability}
          onChange={setReliability}
          error={missing && !reliability ? 'Choose a reliability grade.' : undefined}
          disabled={busy}
        />
        <GradePicker
          label="Information credibility"
          description="How far this information is confirmed."
          grades={CREDIBILITY_GRADES.map(String) as `${CredibilityGrade}`[]}
          definitions={CREDIBILITY_LABELS as Record<string, string>}
          value={credibility}
          onChange={setCredibility}
          error={missing && !credibility ? 'Choose a credibility grade.' : undefined}
          disabled={busy}
        />
      </AnswerForm>
    );
  }

  return (
    <Stack gap="xs">
      <Text size="sm">
        Your grade <strong>{`${result.reliability.given}${result.credibility.given}`}</strong>, the key{' '}
        <strong>{`${result.reliability.key}${result.credibility.key}`}</strong>.
      </Text>
      <Table.ScrollContainer minWidth={300} scrollAreaProps={focusableScroll('Your grade against the key')}>
        <Table fz="sm" verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Axis</Table.Th>
              <Table.Th scope="col">Your grade</Table.Th>
              <Table.Th scope="col">Key</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <AxisRow
              axis="Reliability"
              given={result.reliability.given}
              key_={result.reliability.key}
              definition={RELIABILITY_LABELS[result.reliability.given]}
              keyDefinition={RELIABILITY_LABELS[result.reliability.key]}
              verdict={result.reliability.verdict}
            />
            <AxisRow
              axis="Credibility"
              given={String(result.credibility.given)}
              key_={String(result.credibility.key)}
              definition={CREDIBILITY_LABELS[result.credibility.given as CredibilityGrade] ?? ''}
              keyDefinition={CREDIBILITY_LABELS[result.credibility.key as CredibilityGrade] ?? ''}
              verdict={result.credibility.verdict}
            />
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        An adjacent grade earns half (A-E and 1-5); F and 6 count only when exact.
      </Text>
    </Stack>
  );
}
