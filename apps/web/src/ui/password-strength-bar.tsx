import { passwordStrength } from '@tradecraft/shared';
import { Group, Progress, Text } from '@mantine/core';

/** Five criteria; red at 2 or fewer, yellow at 3, blue at 4, green at 5. */
export function PasswordStrengthBar({ password }: { password: string }) {
  const strength = passwordStrength(password);
  return (
    <Group gap="xs" mt={6} wrap="nowrap" aria-live="polite">
      <Progress
        value={(strength.score / 5) * 100}
        color={strength.color}
        size="sm"
        flex={1}
        aria-label={`Password strength: ${strength.label}`}
        data-strength={strength.color}
      />
      <Text size="xs" c="dimmed" w={48}>
        {password ? strength.label : ''}
      </Text>
    </Group>
  );
}
