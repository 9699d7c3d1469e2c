import '@mantine/charts/styles.css';
import { formatCredit, type SkillScore } from '@tradecraft/shared';
import { BarChart } from '@mantine/charts';
import { Box, Table, Text } from '@mantine/core';

import { focusableScroll } from '../../../ui/focusable-scroll';

/** Credit per analyst skill as a table: the skill, the credit over the steps answered, the share. */
export function AnalystSkillsTable({ skills, emptyText }: { skills: SkillScore[]; emptyText: string }) {
  const attempted = skills.filter((skill) => skill.attempts > 0);
  if (attempted.length === 0) return <Text c="dimmed">{emptyText}</Text>;
  return (
    <Table.ScrollContainer minWidth={320} scrollAreaProps={focusableScroll('Analyst skills')}>
      <Table withTableBorder verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Skill</Table.Th>
            <Table.Th scope="col" ta="right">
              Credit
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Share
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attempted.map((skill) => (
            <Table.Tr key={skill.skill} data-skill={skill.skill}>
              <Table.Td>{skill.label}</Table.Td>
              <Table.Td ta="right" className="tabular-nums">
                {formatCredit(skill.credit)} of {skill.attempts} {skill.attempts === 1 ? 'step' : 'steps'}
              </Table.Td>
              <Table.Td ta="right" className="tabular-nums">
                {skill.percent}%
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Credit per analyst skill as a bar chart (every skill, practised or not), with the same figures in the table
 * below it for screen readers and exact reading.
 */
export function AnalystSkillsChart({ skills }: { skills: SkillScore[] }) {
  const data = skills.map((skill) => ({ skill: skill.label, Share: skill.attempts > 0 ? skill.percent : 0 }));
  return (
    <Box aria-hidden>
      <BarChart
        h={280}
        data={data}
        dataKey="skill"
        orientation="vertical"
        series={[{ name: 'Share', color: 'var(--mantine-primary-color-filled)', label: 'Share of credit' }]}
        yAxisProps={{ width: 120 }}
        xAxisProps={{ domain: [0, 100], tickFormatter: (value: number) => `${value}%` }}
        maxBarWidth={22}
        gridAxis="x"
        withTooltip={false}
        barChartProps={{ accessibilityLayer: false }}
      />
    </Box>
  );
}
