import type { Calibration } from '@tradecraft/shared';
import { Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import classes from './progress.module.css';
import { focusableScroll } from '../../../ui/focusable-scroll';

const SIZE = 260;
const PAD = 36;
const span = SIZE - 2 * PAD;
const at = (share: number) => PAD + share * span;
const atY = (share: number) => SIZE - PAD - share * span;

const estimatesText = (count: number) => `${count} ${count === 1 ? 'estimate' : 'estimates'}`;

/** What the server says of the Brier score, or how many more estimates a verdict needs. */
export function calibrationWords(calibration: Calibration): string {
  if (calibration.verdict !== null) return `over ${estimatesText(calibration.estimates)}: ${calibration.verdict}.`;
  return `over ${estimatesText(calibration.estimates)}. Too few to judge: calibration is judged after ${estimatesText(calibration.estimatesNeeded)}, ${calibration.estimatesNeeded - calibration.estimates} more to go.`;
}

/**
 * Stated probability against observed frequency, one point per term used (sized by how often), with the
 * diagonal of perfect calibration. Drawn by hand: a diagonal reference line is not something the chart
 * library's scatter chart draws. The table beside it carries the same figures as text.
 */
function ReliabilityDiagram({ calibration }: { calibration: Calibration }) {
  const most = Math.max(1, ...calibration.reliability.map((row) => row.count));
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <svg
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      width="100%"
      style={{ maxWidth: SIZE }}
      role="img"
      aria-label="Reliability diagram: stated probability against observed frequency per term; the table lists the same figures."
      className={classes.reliability}
    >
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={at(tick)} y1={atY(0)} x2={at(tick)} y2={atY(1)} className={classes.gridLine} />
          <line x1={at(0)} y1={atY(tick)} x2={at(1)} y2={atY(tick)} className={classes.gridLine} />
          <text x={at(tick)} y={SIZE - PAD + 14} textAnchor="middle" className={classes.axisText}>
            {tick * 100}
          </text>
          <text x={PAD - 6} y={atY(tick) + 4} textAnchor="end" className={classes.axisText}>
            {tick * 100}
          </text>
        </g>
      ))}
      <line x1={at(0)} y1={atY(0)} x2={at(1)} y2={atY(1)} className={classes.diagonal} />
      <text x={SIZE / 2} y={SIZE - 4} textAnchor="middle" className={classes.axisText}>
        Stated probability (%)
      </text>
      <text
        x={10}
        y={SIZE / 2}
        textAnchor="middle"
        transform={`rotate(-90 10 ${SIZE / 2})`}
        className={classes.axisText}
      >
        Observed frequency (%)
      </text>
      {calibration.reliability.map((row) => (
        <circle
          key={row.term}
          cx={at(row.probability)}
          cy={atY(row.observedFrequency)}
          r={4 + 6 * Math.sqrt(row.count / most)}
          className={classes.point}
        >
          <title>{`${row.label}: said ${Math.round(row.probability * 100)} %, true ${Math.round(row.observedFrequency * 100)} % of ${row.count}`}</title>
        </circle>
      ))}
    </svg>
  );
}

/** Calibration over every estimate: the Brier score with a line on what it means, and the reliability diagram. */
export function CalibrationPanel({ calibration, own }: { calibration: Calibration; own: boolean }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="calibration-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="calibration-heading">
          Calibration
        </Title>
        {calibration.brierScore === null ? (
          <Text c="dimmed">
            {own
              ? 'No estimate yet. Estimate steps ask how likely something is; your calibration appears here after the first one.'
              : 'No estimate has been recorded yet.'}
          </Text>
        ) : (
          <>
            <Group gap="xs" align="baseline">
              <Text fw={700} fz="xl" className="tabular-nums" data-testid="brier-score">
                Brier score {calibration.brierScore.toFixed(3)}
              </Text>
              <Text size="sm" data-testid="calibration-verdict">
                {calibrationWords(calibration)}
              </Text>
            </Group>
            <Text size="sm" c="dimmed">
              The mean of (stated probability - what happened)² over first answers: 0 is perfect, 1 is always certain
              and always wrong.
            </Text>
            <Group align="flex-start" gap="lg" wrap="wrap">
              <ReliabilityDiagram calibration={calibration} />
              <Table.ScrollContainer
                minWidth={300}
                style={{ flex: '1 1 300px' }}
                scrollAreaProps={focusableScroll('Calibration per term')}
              >
                <Table withTableBorder fz="sm" verticalSpacing={4}>
                  <Table.Caption style={{ captionSide: 'top', textAlign: 'left', marginTop: 0 }}>
                    Per term: how often you used it, what it states, and how often the statement came true. On the
                    diagonal means calibrated.
                  </Table.Caption>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Term</Table.Th>
                      <Table.Th scope="col" ta="right">
                        Used
                      </Table.Th>
                      <Table.Th scope="col" ta="right">
                        Stated
                      </Table.Th>
                      <Table.Th scope="col" ta="right">
                        Came true
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {calibration.reliability.map((row) => (
                      <Table.Tr key={row.term} data-term={row.term}>
                        <Table.Td>{row.label}</Table.Td>
                        <Table.Td ta="right" className="tabular-nums">
                          {row.count}
                        </Table.Td>
                        <Table.Td ta="right" className="tabular-nums">
                          {Math.round(row.probability * 100)}%
                        </Table.Td>
                        <Table.Td ta="right" className="tabular-nums">
                          {Math.round(row.observedFrequency * 100)}%
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
