import {
  CONFIDENCE_LEVELS,
  ESTIMATE_TERM_INFO,
  ESTIMATE_TERMS,
  type ConfidenceLevel,
  type EstimateTerm,
} from '@tradecraft/shared';
import { Blockquote, Group, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { AnswerForm } from './answer-form';
import { VerdictIcon } from '../../credit';

/** Where a term's range sits on a 0-100 % track, for the little bar beside it. */
function rangeOf(term: EstimateTerm): { from: number; to: number } {
  const [from = 0, to = 100] = ESTIMATE_TERM_INFO[term].range.replace(/\s*%/, '').split('-').map(Number);
  return { from, to };
}

function RangeBar({ term }: { term: EstimateTerm }) {
  const { from, to } = rangeOf(term);
  return (
    <span className={classes.rangeTrack} aria-hidden>
      <span className={classes.rangeFill} style={{ left: `${from}%`, width: `${Math.max(2, to - from)}%` }} />
    </span>
  );
}

const CONFIDENCE_WORDS: Record<ConfidenceLevel, string> = { low: 'Low', moderate: 'Moderate', high: 'High' };

/**
 * estimate: the seven ICD 203 terms as a scale from least to most likely, each with its range, and a confidence
 * when the step asks; once answered, the defensible terms, the trainee's, and what happened.
 */
export function EstimateControl({ step, result, busy, onSubmit }: ControlProps<'estimate'>) {
  const [term, setTerm] = useState<EstimateTerm | null>(null);
  const [confidence, setConfidence] = useState<ConfidenceLevel | null>(null);
  const [missing, setMissing] = useState(false);

  const statement = (
    <Blockquote p="sm" className={classes.preWrap} cite={undefined}>
      <Text size="sm" fw={600}>
        {step.statement}
      </Text>
    </Blockquote>
  );

  if (!result) {
    return (
      <AnswerForm
        busy={busy}
        onSubmit={() => {
          if (!term || (step.askConfidence && !confidence)) {
            setMissing(true);
            return;
          }
          onSubmit(step.askConfidence && confidence ? { term, confidence } : { term });
        }}
      >
        <Text size="sm">How likely is this?</Text>
        {statement}
        <Radio.Group
          value={term}
          onChange={(value) => setTerm(value as EstimateTerm)}
          label="Likelihood"
          description="The seven ICD 203 terms, from least to most likely."
          error={missing && !term ? 'Choose a likelihood.' : undefined}
        >
          <Stack gap={4} mt="xs">
            {ESTIMATE_TERMS.map((value) => (
              <Radio
                key={value}
                value={value}
                disabled={busy}
                classNames={{
                  root: classes.scaleOption,
                  body: classes.scaleBody,
                  labelWrapper: classes.scaleLabelWrapper,
                }}
                label={
                  <Group gap="sm" wrap="nowrap" justify="space-between">
                    <span>{ESTIMATE_TERM_INFO[value].label}</span>
                    <Group gap="xs" wrap="nowrap">
                      <RangeBar term={value} />
                      <Text span size="xs" c="dimmed" className="tabular-nums" miw="7ch" ta="right">
                        {ESTIMATE_TERM_INFO[value].range}
                      </Text>
                    </Group>
                  </Group>
                }
              />
            ))}
          </Stack>
        </Radio.Group>
        {step.askConfidence && (
          <Radio.Group
            value={confidence}
            onChange={(value) => setConfidence(value as ConfidenceLevel)}
            label="Confidence in your judgement"
            description="How solid is the evidence behind it?"
            error={missing && !confidence ? 'Choose a confidence.' : undefined}
          >
            <Group gap="lg" mt="xs">
              {CONFIDENCE_LEVELS.map((level) => (
                <Radio key={level} value={level} label={CONFIDENCE_WORDS[level]} disabled={busy} />
              ))}
            </Group>
          </Radio.Group>
        )}
      </AnswerForm>
    );
  }

  return (
    <Stack gap="xs">
      {statement}
      <Stack component="ul" gap={4} className={classes.plainList} aria-label="Likelihood terms">
        {ESTIMATE_TERMS.map((value) => {
          const accepted = result.accept.includes(value);
          const given = result.term === value;
          const verdict = given ? result.verdict : accepted ? 'right' : null;
          if (!accepted && !given) {
            return (
              <li key={value} className={classes.scaleResult}>
                <Group gap="sm" wrap="nowrap" justify="space-between">
                  <Text size="sm" c="dimmed">
                    {ESTIMATE_TERM_INFO[value].label}
                  </Text>
                  <Text size="xs" c="dimmed" className="tabular-nums">
                    {ESTIMATE_TERM_INFO[value].range}
                  </Text>
                </Group>
              </li>
            );
          }
          return (
            <li
              key={value}
              className={`${classes.scaleResult} ${classes.lockedOption}`}
              data-state={accepted ? 'correct' : result.verdict === 'partial' ? 'partial' : 'wrong'}
            >
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <VerdictIcon verdict={verdict} />
                <Stack gap={0} style={{ flex: 1 }}>
                  <Group gap="sm" wrap="nowrap" justify="space-between">
                    <Text size="sm" fw={600}>
                      {ESTIMATE_TERM_INFO[value].label}
                    </Text>
                    <Text size="xs" className="tabular-nums">
                      {ESTIMATE_TERM_INFO[value].range}
                    </Text>
                  </Group>
                  <Text size="xs" fw={600}>
                    {[
                      given ? 'Your estimate' : null,
                      accepted
                        ? 'Defensible'
                        : given && result.distance === 1
                          ? 'One term from a defensible one'
                          : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </Stack>
              </Group>
            </li>
          );
        })}
      </Stack>
      {result.confidence && (
        <Text size="sm">Your confidence: {CONFIDENCE_WORDS[result.confidence]} (recorded, not graded).</Text>
      )}
      <Text size="sm">
        What happened: the statement turned out <strong>{result.outcome ? 'true' : 'false'}</strong>. Your estimate
        stated a probability of {Math.round(result.probability * 100)} %; it counts towards your calibration.
      </Text>
    </Stack>
  );
}
