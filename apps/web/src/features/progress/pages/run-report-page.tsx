import {
  formatCredit,
  DIFFICULTY_LABELS,
  formatDuration,
  formatScorePercent,
  SKILL_LABELS,
  STEP_KIND_LABELS,
  verdictCountsInWords,
  verdictWords,
  type DecisionVerdict,
  type ReportDecision,
  type RunReport,
} from '@tradecraft/shared';
import { ATTACK_NOTICE } from '@tradecraft/shared/attack';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconInfoCircle, IconPrinter } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { scenarioTypeColor } from '../../../ui/theme';
import { decisionCreditText, DecisionVerdictIcon } from '../../../ui/credit';
import { useRunReport } from '../api/get-run-report';
import { AnalystSkillsTable } from '../../../ui/analyst-skills-table';
import { formatAnswerTime } from '../components/decision-timeline';
import { LoadError } from '../../../ui/load-error';
import { ResultBadge } from '../components/result-badge';
import classes from './run-report-page.module.css';
import { formatDateTime } from '../../../lib/dates';

const dateTime = (iso: string | null) => (iso ? formatDateTime(iso) : '-');

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={classes.fact}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" className={classes.factLabel}>
        {label}
      </Text>
      <Text size="sm" fw={600} className="tabular-nums" component="div">
        {children}
      </Text>
    </div>
  );
}

function Header({ report }: { report: RunReport }) {
  const { run, scenario, trainee } = report;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Text size="sm" c="dimmed" fw={600}>
            After-action report
          </Text>
          <Title order={1}>{run.scenarioName}</Title>
          <Group gap="xs" mt={6}>
            {scenario.type && (
              <Badge color={scenarioTypeColor(scenario.type)} variant="light" radius="sm">
                {scenario.type}
              </Badge>
            )}
            {scenario.difficulty !== null && (
              <Text size="sm" c="dimmed">
                Difficulty {scenario.difficulty}/5 · {DIFFICULTY_LABELS[scenario.difficulty] ?? ''}
              </Text>
            )}
          </Group>
        </div>
        <Group gap="xs" className="no-print">
          <Button
            variant="default"
            component={Link}
            to={paths.dashboard}
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            Dashboard
          </Button>
          <Button onClick={() => window.print()} leftSection={<IconPrinter size={16} aria-hidden />}>
            Print / Save as PDF
          </Button>
        </Group>
      </Group>
      {scenario.description && <Text>{scenario.description}</Text>}
      <Paper withBorder radius="md" p="md" className={classes.keepTogether}>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="md" verticalSpacing="sm">
          <Fact label="Result">
            <ResultBadge result={run.result} />
          </Fact>
          <Fact label="Score">
            {formatCredit(run.score)} / {run.percentBase || '-'} ({formatScorePercent(run.scorePercent)}
            {run.scorePercent === null ? '' : '%'})
          </Fact>
          <Fact label="Status">{run.statusLabel}</Fact>
          <Fact label="Duration">{formatDuration(run.durationSeconds)}</Fact>
          <Fact label="Started">{dateTime(run.startedAt)}</Fact>
          <Fact label="Trainee">
            <span className={classes.breakAnywhere}>
              {`${trainee.firstName} ${trainee.lastName}`.trim() || trainee.email}
            </span>
          </Fact>
        </SimpleGrid>
        <Text size="sm" c="dimmed" mt="sm" data-testid="report-verdicts">
          {verdictCountsInWords(run.verdicts)}
          {run.finishedAt ? `; finished ${dateTime(run.finishedAt)}` : '; not finished'}. Trainee: {trainee.email}.
        </Text>
      </Paper>
      {scenario.note && (
        <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden />} title="About this report">
          {scenario.note}
        </Alert>
      )}
    </Stack>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Sources({ report }: { report: RunReport }) {
  if (report.scenario.sources.length === 0) {
    return (
      <Text c="dimmed">{report.scenario.known ? 'This scenario lists no sources.' : 'The sources are unknown.'}</Text>
    );
  }
  return (
    <List spacing={4}>
      {report.scenario.sources.map((source) => (
        <List.Item key={source.url}>
          <Anchor href={source.url} target="_blank" rel="noopener noreferrer">
            {source.title}
          </Anchor>
          <Text span size="xs" c="dimmed" className={classes.printUrl}>
            {' '}
            {source.url}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

// Outline badges: the partly-right yellow is too light for text, so its words take the body colour.
const VERDICT_BADGE: Record<DecisionVerdict, { color: string; text: string | undefined }> = {
  right: { color: 'green', text: undefined },
  'partly-right': { color: 'yellow.8', text: 'var(--mantine-color-text)' },
  wrong: { color: 'red', text: undefined },
  'after-retry': { color: 'gray', text: 'var(--mantine-color-text)' },
  'awaiting-review': { color: 'blue.8', text: undefined },
  'not-scored': { color: 'gray', text: 'var(--mantine-color-text)' },
};

function DecisionCard({ decision }: { decision: ReportDecision }) {
  const badge = VERDICT_BADGE[decision.verdict];
  return (
    <Paper component="li" withBorder radius="md" p="md" className={classes.keepTogether}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Group gap="sm" align="flex-start" wrap="nowrap" miw={0}>
          <DecisionVerdictIcon verdict={decision.verdict} />
          <div style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed" className="tabular-nums">
              Decision {decision.seq} · {STEP_KIND_LABELS[decision.kind]} · {SKILL_LABELS[decision.skill]}
              {decision.technique ? ` · ${decision.technique.id} ${decision.technique.name}` : ''}
            </Text>
            <Text fw={650}>{decision.stepTitle ?? `Step ${decision.stepId}`}</Text>
          </div>
        </Group>
        <Badge color={badge.color} c={badge.text} variant="outline" radius="sm" className={classes.verdict}>
          {verdictWords(decision.verdict, decision.hintUsed)}
        </Badge>
      </Group>
      <dl className={classes.details}>
        <dt>Kind</dt>
        <dd>{STEP_KIND_LABELS[decision.kind]}</dd>
        <dt>Answer</dt>
        <dd className={classes.preWrap}>{decision.decision}</dd>
        <dt>Key</dt>
        <dd className={classes.preWrap}>
          {decision.correctAnswer ?? 'Unknown (the scenario or this step is no longer available)'}
        </dd>
        <dt>Credit</dt>
        <dd className="tabular-nums">{decisionCreditText(decision)}</dd>
        <dt>Feedback</dt>
        <dd className={classes.preWrap}>{decision.feedback}</dd>
        <dt>Time taken</dt>
        <dd className="tabular-nums">{formatAnswerTime(decision.timeMs)}</dd>
      </dl>
    </Paper>
  );
}

function Techniques({ report }: { report: RunReport }) {
  if (report.techniques.length === 0) {
    return <Text c="dimmed">No step of this run was mapped to an ATT&amp;CK technique.</Text>;
  }
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table withTableBorder verticalSpacing={6} className={classes.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Technique</Table.Th>
            <Table.Th className={classes.numeric}>Right</Table.Th>
            <Table.Th className={classes.numeric}>Missed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.techniques.map((technique) => (
            <Table.Tr key={technique.id}>
              <Table.Td>
                {technique.url ? (
                  <Anchor href={technique.url} target="_blank" rel="noopener noreferrer" size="sm">
                    {technique.id}
                  </Anchor>
                ) : (
                  technique.id
                )}{' '}
                {technique.name}
              </Table.Td>
              <Table.Td className={classes.numeric}>{technique.right}</Table.Td>
              <Table.Td className={classes.numeric}>{technique.wrong}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function PractiseNext({ report }: { report: RunReport }) {
  const missed = report.techniques.filter((technique) => technique.wrong > 0);
  if (missed.length === 0) {
    return <Text c="dimmed">No technique was missed in this run: nothing in particular to practise.</Text>;
  }
  if (report.practiseNext.length === 0) {
    return (
      <Text c="dimmed">
        No other scenario in the library covers the techniques missed (
        {missed.map((technique) => technique.id).join(', ')}). Try this scenario again.
      </Text>
    );
  }
  return (
    <List spacing="xs">
      {report.practiseNext.map((scenario) => (
        <List.Item key={scenario.id}>
          <Anchor component={Link} to={paths.simulation(scenario.id)} fw={600}>
            {scenario.name}
          </Anchor>
          <Text span size="sm" c="dimmed">
            {' '}
            ({scenario.type}, difficulty {scenario.difficulty}/5): practises{' '}
            {scenario.practises.map((technique) => `${technique.id} ${technique.name}`).join('; ')}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

function ReportSkeleton() {
  return (
    <Stack gap="md" role="status" aria-busy="true" aria-label="Loading the report">
      <Skeleton height={40} width="60%" />
      <Skeleton height={110} radius="md" />
      <Skeleton height={220} radius="md" />
    </Stack>
  );
}

export default function RunReportPage() {
  const { runId = '' } = useParams();
  const report = useRunReport(runId);
  usePageTitle(report.data ? `After-action report: ${report.data.run.scenarioName}` : null);

  if (report.isPending) {
    return (
      <Stack gap="lg">
        <div>
          <Title order={1}>After-action report</Title>
          <Text c="dimmed">How the run went, decision by decision, and what to practise next.</Text>
        </div>
        <ReportSkeleton />
      </Stack>
    );
  }
  if (report.isError) {
    return (
      <Stack gap="lg">
        <div>
          <Title order={1}>After-action report</Title>
          <Text c="dimmed">How the run went, decision by decision, and what to practise next.</Text>
        </div>
        <LoadError title="The report could not be loaded" error={report.error} onRetry={() => void report.refetch()} />
        <Anchor component={Link} to={paths.dashboard}>
          Back to the dashboard
        </Anchor>
      </Stack>
    );
  }

  const data = report.data;
  return (
    <Stack gap="xl" className={classes.report} data-testid="run-report">
      <Header report={data} />
      <Section id="report-sources" title="Sources">
        <Sources report={data} />
      </Section>
      <Section id="report-decisions" title="Decisions">
        {data.decisions.length === 0 ? (
          <Text c="dimmed">No decision was made in this run.</Text>
        ) : (
          <Stack component="ol" gap="sm" className={classes.plainList}>
            {data.decisions.map((decision) => (
              <DecisionCard key={decision.seq} decision={decision} />
            ))}
          </Stack>
        )}
      </Section>
      {data.notebook && (
        <Section id="report-notes" title="Your notes">
          <Text size="sm" className={classes.preWrap}>
            {data.notebook}
          </Text>
        </Section>
      )}
      <Section id="report-skills" title="Analyst skills">
        <AnalystSkillsTable skills={data.skills} emptyText="No scored step of this run trained an analyst skill." />
      </Section>
      <Section id="report-techniques" title="Techniques met">
        <Techniques report={data} />
      </Section>
      <Section id="report-practise" title="What to practise next">
        <PractiseNext report={data} />
      </Section>
      <Text size="xs" c="dimmed">
        Report generated {dateTime(data.generatedAt)} · Run {data.run.id}. {ATTACK_NOTICE}
      </Text>
    </Stack>
  );
}
