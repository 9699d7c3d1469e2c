import '@mantine/charts/styles.css';
import type { SkillScore } from '@tradecraft/shared';
import { BarChart } from '@mantine/charts';
import { Box } from '@mantine/core';

/**
 * Credit per analyst skill as a bar chart (every skill, practised or not), with the same figures in the
 * AnalystSkillsTable below it for screen readers and exact reading.
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
