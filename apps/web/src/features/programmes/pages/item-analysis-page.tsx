import '@mantine/charts/styles.css';
import { ITEM_FLAG_LABELS, type ItemAnalysis } from '@tradecraft/shared';
import { BarChart } from '@mantine/charts';
import { Anchor, Badge, Box, Group, Paper, Select, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { LoadError } from '../../../ui/load-error';
import { getScenarioChoices, scenarioChoicesKey } from '../api/assignments';
import { SearchSelect } from '../../../ui/search-select';
import { useItemAnalysis } from '../api/item-analysis';

const figure = (value: number | null, digits = 2) => (value === null ? '-' : value.toFixed(digits));
const seconds = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);

/** Mean credit and discrimination per step as bars (the table below holds the same figures). */
function StepChart({ analysis }: { analysis: ItemAnalysis }) {
  const data = analysis.steps.map((step) => ({
    step: step.title.length > 24 ? `${step.title.slice(0, 23)}…` : step.title,
    'Mean credit': step.meanCredit ?? 0,
    Discrimination: step.discrimination ?? 0,
  }));
  return (
    <Box aria-hidden>
      <BarChart
        h={Math.max(200, 48 * data.length)}
        data={data}
        dataKey="step"
        orientation="vertical"
        series={[
          { name: 'Mean credit', color: 'blue.6' },
          { name: 'Discrimination', color: 'orange.6' },
        ]}
        yAxisProps={{ width: 150 }}
        xAxisProps={{ domain: [-1, 1] }}
        withLegend
        withTooltip={false}
        gridAxis="x"
        barChartProps={{ accessibilityLayer: false }}
      />
    </Box>
  );
}

function Analysis({ analysis }: { analysis: ItemAnalysis }) {
  return (
    <Stack gap="md">
      <Text>
        {analysis.version ? `Version ${analysis.version.number}: ` : ''}
        {analysis.runs} {analysis.runs === 1 ? 'run' : 'runs'}
        {analysis.analysedRuns < analysis.runs ? `, the newest ${analysis.analysedRuns} analysed` : ''},{' '}
        {analysis.finishedRuns} finished.{' '}
        {analysis.groupSize > 0
          ? `Discrimination compares the top ${analysis.groupSize} and bottom ${analysis.groupSize} finished runs by score (27 % each).`
          : 'Discrimination needs at least four finished runs.'}
      </Text>
      <StepChart analysis={analysis} />
      <Table.ScrollContainer minWidth={900}>
        <Table aria-label="Steps, most attention first" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Step</Table.Th>
              <Table.Th>Reached</Table.Th>
              <Table.Th>Mean first-answer credit</Table.Th>
              <Table.Th>Discrimination</Table.Th>
              <Table.Th>Median time</Table.Th>
              <Table.Th>Options chosen (all / top group)</Table.Th>
              <Table.Th>Needs attention</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {analysis.steps.map((step) => (
              <Table.Tr key={step.stepId} data-step={step.stepId}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {step.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {step.kind}
                  </Text>
                </Table.Td>
                <Table.Td className="tabular-nums">{step.reached}</Table.Td>
                <Table.Td className="tabular-nums">{figure(step.meanCredit)}</Table.Td>
                <Table.Td className="tabular-nums">{figure(step.discrimination)}</Table.Td>
                <Table.Td className="tabular-nums">{seconds(step.medianTimeMs)}</Table.Td>
                <Table.Td>
                  {step.options.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      -
                    </Text>
                  ) : (
                    <Stack gap={2}>
                      {step.options.map((option) => (
                        <Text key={option.index} size="xs">
                          {option.correct ? '✓ ' : ''}
                          {option.text}: {option.chosen} / {option.chosenByTop}
                        </Text>
                      ))}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {step.flags.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        -
                      </Text>
                    ) : (
                      step.flags.map((flag) => (
                        <Badge
                          key={flag}
                          color="orange"
                          variant="light"
                          tt="none"
                          styles={{ label: { whiteSpace: 'normal', height: 'auto' } }}
                          h="auto"
                        >
                          {ITEM_FLAG_LABELS[flag]}
                        </Badge>
                      ))
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

const versionLabel = (version: ItemAnalysis['versions'][number]) =>
  `Version ${version.number}${version.state === 'published' ? ' (current)' : ''} · ${version.runs} ${version.runs === 1 ? 'run' : 'runs'}`;

/** Steps and options differ between versions: the analysis reads one at a time. */
function VersionSelect({ analysis, onChange }: { analysis: ItemAnalysis; onChange: (version: number) => void }) {
  if (analysis.versions.length === 0) return null;
  return (
    <Select
      label="Version"
      description="Each version has its own steps and options; the newest version with runs is shown first."
      data={analysis.versions.map((version) => ({ value: String(version.number), label: versionLabel(version) }))}
      value={analysis.version ? String(analysis.version.number) : null}
      onChange={(value) => value && onChange(Number(value))}
      allowDeselect={false}
      maw={480}
    />
  );
}

export default function ItemAnalysisPage() {
  const [params, setParams] = useSearchParams();
  const scenarioId = params.get('scenario');
  const versionParam = Number(params.get('version'));
  const version = Number.isInteger(versionParam) && versionParam > 0 ? versionParam : null;
  const analysis = useItemAnalysis(scenarioId, version);
  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to={paths.cohorts} size="sm">
          Cohorts
        </Anchor>
        <Title order={1}>Item analysis</Title>
        <Text c="dimmed">
          How each step of a scenario performs: the steps that need the author&apos;s attention come first.
        </Text>
      </div>
      <SearchSelect
        label="Scenario"
        queryKey={scenarioChoicesKey}
        fetchChoices={getScenarioChoices}
        value={scenarioId}
        valueLabel={analysis.data?.scenario.id === scenarioId ? analysis.data?.scenario.name : undefined}
        onChange={(value) => setParams(value ? { scenario: value } : {})}
        nothingFoundMessage="No published scenario has that in its name"
        maw={480}
      />
      {scenarioId !== null && analysis.data && (
        <VersionSelect
          analysis={analysis.data}
          onChange={(number) => setParams({ scenario: scenarioId, version: String(number) })}
        />
      )}
      {scenarioId === null ? (
        <Text c="dimmed">Choose a scenario.</Text>
      ) : analysis.isPending ? (
        <Skeleton height={240} />
      ) : analysis.isError ? (
        <LoadError
          title="The analysis could not be loaded"
          error={analysis.error}
          onRetry={() => void analysis.refetch()}
        />
      ) : (
        <Paper
          withBorder
          radius="md"
          p="md"
          component="section"
          aria-label={`Item analysis of ${analysis.data.scenario.name}${analysis.data.version ? `, version ${analysis.data.version.number}` : ''}`}
        >
          <Analysis analysis={analysis.data} />
        </Paper>
      )}
    </Stack>
  );
}
