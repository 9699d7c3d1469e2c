import type { WriteCheck, WriteCheckResult } from '@tradecraft/shared';
import { Group, Stack, Text } from '@mantine/core';
import { VerdictIcon } from './credit';
import classes from './write-checks.module.css';

// The automatic checks of a written answer, as the trainee sees them after submitting and the instructor when grading.

export const WRITE_CHECK_NAMES: Record<WriteCheck, string> = {
  tlp: 'Starts with a TLP 2.0 marking',
  estimative_language: 'Estimative language (the seven ICD 203 terms only)',
  must_mention: 'Mentions what it must',
  max_words: 'Within the word limit',
};

export function WriteCheckList({ checks }: { checks: WriteCheckResult[] }) {
  return (
    <Stack component="ul" gap={6} className={classes.list} aria-label="Automatic checks">
      {checks.map((check) => (
        <li key={check.check}>
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <VerdictIcon verdict={check.passed ? 'right' : 'wrong'} />
            <Stack gap={0} miw={0}>
              <Text size="sm" fw={600}>
                {WRITE_CHECK_NAMES[check.check]}: {check.passed ? 'passed' : 'failed'}
              </Text>
              {check.reason && (
                <Text size="xs" className={classes.preWrap}>
                  {check.reason}
                </Text>
              )}
              {check.places.length > 0 && (
                <Text size="xs">
                  Flagged: {check.places.map((place) => `“${place.word}” at character ${place.index + 1}`).join(', ')}
                </Text>
              )}
            </Stack>
          </Group>
        </li>
      ))}
    </Stack>
  );
}
