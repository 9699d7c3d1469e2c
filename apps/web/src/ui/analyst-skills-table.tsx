import { formatCredit, type SkillScore } from '@tradecraft/shared';
import { Table, Text } from '@mantine/core';
import { focusableScroll } from './focusable-scroll';

// Credit per analyst skill: the end of a run, its report and the skill map show the same table.

/** Credit per analyst skill as a table: the skill, the credit over the steps answered, the share. */
export function AnalystSkillsTable({ skills, emptyText }: { skills: SkillScore[]; emptyText: string }) {
  const attempted = skills.filter((skill) => skill.attempts > 0);
  if (attempted.length === 0) return <Text c="dimmed">{emptyText}</Text>;
  return (
    <Table.ScrollContainer minWidth={320} scrollAreaProps={focusableScroll('Analyst skills table')}>
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
