import type { AdminScenario, ScenarioArtifact } from '@tradecraft/shared';
import { techniqueLabel } from '@tradecraft/shared/attack';
import { Badge, Box, Code, Group, Paper, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowBackUp, IconArrowRight, IconBulb, IconCheck, IconFlag } from '@tabler/icons-react';
import { focusableScroll } from '../../../ui/focusable-scroll';
import { describeDestination, optionDestination } from '../lib/scenario-flow';

const OPTION_LETTERS = 'ABCDEF';

function Artifact({ artifact }: { artifact: ScenarioArtifact }) {
  const meta = [artifact.source, artifact.date].filter(Boolean).join(' · ');
  return (
    <Paper withBorder radius="sm" p="sm" bg="var(--mantine-color-default-hover)">
      <Stack gap={6}>
        <Group gap="xs">
          <Badge variant="outline" color="gray" size="sm" radius="sm">
            {artifact.kind}
          </Badge>
          {artifact.title && (
            <Text size="sm" fw={600}>
              {artifact.title}
            </Text>
          )}
          {meta && (
            <Text size="xs" c="dimmed">
              {meta}
            </Text>
          )}
        </Group>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {artifact.content}
        </Code>
        {artifact.indicators && artifact.indicators.length > 0 && (
          <Table.ScrollContainer minWidth={360} scrollAreaProps={focusableScroll('Indicators')}>
            <Table withTableBorder fz="sm" verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Indicator</Table.Th>
                  <Table.Th>Value</Table.Th>
                  <Table.Th>Context</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {artifact.indicators.map((indicator, index) => (
                  <Table.Tr key={index}>
                    <Table.Td>{indicator.type}</Table.Td>
                    <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {indicator.value}
                    </Table.Td>
                    <Table.Td>{indicator.context ?? '-'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

/** The whole scenario, read-only: every step with its intel, hint, technique and where each option leads. */
export function ScenarioSteps({ scenario }: { scenario: AdminScenario }) {
  const { steps } = scenario;
  return (
    <Stack component="ol" gap="md" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Steps">
      {steps.map((step, stepIndex) => (
        <Paper component="li" key={step.id} withBorder radius="md" p="md" data-testid="preview-step">
          <Stack gap="sm">
            <Group justify="space-between" align="flex-start" gap="xs">
              <Title order={3} size="h5">
                {`Step ${stepIndex + 1}: ${step.title}`}
              </Title>
              <Text size="xs" c="dimmed" ff="monospace">
                id: {step.id}
              </Text>
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {step.description}
            </Text>
            {step.mitre_attack && (
              <Group gap={6}>
                <Text size="sm" fw={600}>
                  ATT&CK technique:
                </Text>
                <Badge variant="light" color="accent" radius="sm" tt="none">
                  {techniqueLabel(step.mitre_attack)}
                </Badge>
              </Group>
            )}
            {step.artifacts?.map((artifact, index) => (
              <Artifact key={index} artifact={artifact} />
            ))}
            {step.hint && (
              <Group gap={6} wrap="nowrap" align="flex-start">
                <ThemeIcon size="sm" variant="light" color="yellow" aria-hidden>
                  <IconBulb size={14} />
                </ThemeIcon>
                <Text size="sm">
                  <Text span fw={600}>
                    Hint:{' '}
                  </Text>
                  {step.hint}
                </Text>
              </Group>
            )}
            <Box>
              <Text size="sm" fw={600} mb={6}>
                Options
              </Text>
              <Stack component="ol" gap={8} p={0} m={0} style={{ listStyle: 'none' }}>
                {step.options.map((option, optionIndex) => {
                  const correct = optionIndex === step.correct_option;
                  const destination = optionDestination(steps, stepIndex, optionIndex);
                  const DestinationIcon =
                    destination.kind === 'retry'
                      ? IconArrowBackUp
                      : destination.kind === 'finish'
                        ? IconFlag
                        : IconArrowRight;
                  return (
                    <Paper
                      component="li"
                      key={optionIndex}
                      withBorder
                      radius="sm"
                      p="xs"
                      style={correct ? { borderColor: 'var(--mantine-color-green-7)', borderWidth: 2 } : undefined}
                      data-correct={correct || undefined}
                    >
                      <Stack gap={4}>
                        <Group gap="xs" wrap="nowrap" align="flex-start">
                          <Text size="sm" fw={700} className="tabular-nums" aria-hidden>
                            {OPTION_LETTERS[optionIndex]}.
                          </Text>
                          <Text size="sm" style={{ flexGrow: 1 }}>
                            {option.text}
                          </Text>
                          {correct && (
                            <Badge
                              color="green"
                              variant="filled"
                              leftSection={<IconCheck size={12} aria-hidden />}
                              style={{ flexShrink: 0 }}
                            >
                              Correct
                            </Badge>
                          )}
                        </Group>
                        <Group gap={4} wrap="nowrap" c="dimmed" pl="lg">
                          <DestinationIcon size={14} aria-hidden style={{ flexShrink: 0 }} />
                          <Text size="xs" c="dimmed">
                            Leads to: {describeDestination(steps, destination)}
                          </Text>
                        </Group>
                        {option.feedback && (
                          <Text size="xs" pl="lg">
                            <Text span fw={600} size="xs">
                              Feedback:{' '}
                            </Text>
                            {option.feedback}
                          </Text>
                        )}
                      </Stack>
                    </Paper>
                  );
                })}
              </Stack>
            </Box>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
