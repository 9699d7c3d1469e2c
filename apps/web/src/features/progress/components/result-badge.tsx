import { runResultColor, type RunResult } from '@tradecraft/shared';
import { Badge, Text } from '@mantine/core';

/** Result: a green Pass or red Fail badge (the word always written), or '-' when there is no result. */
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
    <Badge color={color} variant="filled" radius="sm" tt="none" fz="sm" styles={{ label: { overflow: 'visible' } }} data-result={result}>
      {result}
    </Badge>
  );
}
