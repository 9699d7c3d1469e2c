import type { PlayerStep } from '@tradecraft/shared';
import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import type { Ref } from 'react';
import { ArtifactCard } from './artifacts/artifact-card';
import classes from './player.module.css';

/**
 * The case file of a step: where the trainee is (`counter`, such as "Step 3 · 2 left on the best path", or
 * "Practice"), what happened, and the intel to read. `intel={false}` leaves the intel out, for a layout that
 * places it apart (`StepIntel`), such as the player on a phone, where the question comes first.
 */
export function StepPanel({
  step,
  counter,
  headingRef,
  headingOrder = 2,
  intel = true,
}: {
  step: PlayerStep;
  counter: string;
  headingRef: Ref<HTMLHeadingElement>;
  headingOrder?: 2 | 3;
  intel?: boolean;
}) {
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Badge variant="light" color="gray" tt="none" className="tabular-nums" data-testid="step-counter">
          {counter}
        </Badge>
        {step.technique && (
          <Badge variant="outline" color="gray" title={`MITRE ATT&CK ${step.technique.id} ${step.technique.name}`}>
            ATT&CK {step.technique.id}
          </Badge>
        )}
      </Group>
      <Stack gap={4}>
        <Title order={headingOrder} ref={headingRef} tabIndex={-1} className={classes.focusTarget}>
          {step.title}
        </Title>
        {step.technique && (
          <Text size="sm" c="dimmed">
            MITRE ATT&CK: {step.technique.id} {step.technique.name}
          </Text>
        )}
      </Stack>
      <Text className={classes.preWrap}>{step.description}</Text>
      {intel && <StepIntel step={step} />}
    </Stack>
  );
}

/** The step's artifacts, each as its own card. */
export function StepIntel({ step }: { step: PlayerStep }) {
  if (step.artifacts.length === 0) return null;
  return (
    <Stack gap="md" component="section" aria-label="Intel">
      {step.artifacts.map((artifact, index) => (
        <ArtifactCard
          key={index}
          artifact={artifact}
          toGrade={step.kind === 'grade-source' && index === step.artifact}
        />
      ))}
    </Stack>
  );
}
