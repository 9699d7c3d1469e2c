import { runResultColor, type RunResult } from '@tradecraft/shared';
import { Badge, Text } from '@mantine/core';

/**
 * Result: a green Pass, a red Fail or a yellow "Awaiting review" badge (the words always written, dark on the
 * yellow), or '-' when there is no result.
 */
export function ResultBadge({ result }: { result: RunResult }) {
  const color = runResultColor(result);
  if (!color) {
    return (
      <Text span c="dimmed">
        -
      </Text>
    );
  }
  return (
    // The label never shrinks to an ellipsis in a narrow table column.
    <Badge
      color={color === 'yellow' ? 'yellow.4' : color}
      c={color === 'yellow' ? 'dark.9' : undefined}
      variant="filled"
      radius="sm"
      tt="none"
      fz="sm"
      styles={{ label: { overflow: 'visible' } }}
      data-result={result}
    >
      {result}
    </Badge>
  );
}
