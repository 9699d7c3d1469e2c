import { skillColor, type Coverage } from '@tradecraft/shared';
import { Box, SimpleGrid, Stack, Text, Title } from '@mantine/core';

/**
 * The cohort's ATT&CK coverage: one column per tactic that has techniques met, each technique a cell coloured
 * by the share of first answers that were right (the percent is always written in the cell).
 */
export function CoverageHeatmap({ coverage }: { coverage: Coverage }) {
  const columns = coverage.tactics
    .map((tactic) => ({
      tactic,
      techniques: coverage.techniques.filter((technique) => technique.tactics.includes(tactic.shortname)),
    }))
    .filter((column) => column.techniques.length > 0);
  if (columns.length === 0) return <Text c="dimmed">No answers on ATT&amp;CK techniques yet.</Text>;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: Math.min(columns.length, 5) }} spacing="sm">
      {columns.map(({ tactic, techniques }) => (
        <Stack key={tactic.shortname} gap={4}>
          <Title order={3} size="h6">
            {tactic.name}
          </Title>
          {techniques.map((technique) => (
            <Box
              key={technique.id}
              p={6}
              style={{ background: skillColor(technique.sharePercent), color: '#000', borderRadius: 4 }}
              data-technique={technique.id}
            >
              <Text size="xs" fw={600} c="#000">
                {technique.id} · {technique.sharePercent}%
              </Text>
              <Text size="xs" c="#000">
                {technique.name} · {technique.correct}/{technique.attempts} right, {technique.trainees}{' '}
                {technique.trainees === 1 ? 'trainee' : 'trainees'}
              </Text>
            </Box>
          ))}
        </Stack>
      ))}
    </SimpleGrid>
  );
}
