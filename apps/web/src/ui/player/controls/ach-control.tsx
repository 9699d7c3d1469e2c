import { ACH_MARK_LABELS, ACH_MARKS, type AchMark } from '@tradecraft/shared';
import { Alert, Group, Radio, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { useId, useState } from 'react';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { AnswerForm } from './answer-form';
import { VerdictIcon } from '../../credit';
import { focusableScroll } from '../../focusable-scroll';

const hypothesisName = (index: number) => `H${index + 1}`;

function HypothesisList({ hypotheses }: { hypotheses: string[] }) {
  return (
    <Stack component="ol" gap={2} className={classes.plainList} aria-label="Hypotheses">
      {hypotheses.map((hypothesis, index) => (
        <Text component="li" key={index} size="sm" className={classes.preWrap}>
          <strong>{hypothesisName(index)}</strong> {hypothesis}
        </Text>
      ))}
    </Stack>
  );
}

/** One cell of the matrix: three radio toggles C, I, N, named by their row and column for screen readers. */
function MarkCell({
  name,
  legend,
  value,
  onChange,
  disabled,
}: {
  name: string;
  legend: string;
  value: AchMark | null;
  onChange: (mark: AchMark) => void;
  disabled: boolean;
}) {
  return (
    <fieldset className={classes.achCell}>
      <VisuallyHidden component="legend">{legend}</VisuallyHidden>
      {ACH_MARKS.map((mark) => (
        <label key={mark} className={classes.achToggle} data-mark={mark} title={ACH_MARK_LABELS[mark]}>
          <input
            type="radio"
            name={name}
            value={mark}
            checked={value === mark}
            disabled={disabled}
            onChange={() => onChange(mark)}
          />
          <span aria-hidden>{mark}</span>
          <VisuallyHidden>{ACH_MARK_LABELS[mark]}</VisuallyHidden>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * ach: a matrix of evidence rows against hypotheses, each cell Consistent, Inconsistent or Not applicable, then
 * the most likely hypothesis; once answered, every cell against the key.
 */
export function AchControl({ step, result, busy, onSubmit }: ControlProps<'ach'>) {
  const baseName = useId();
  const [marks, setMarks] = useState<(AchMark | null)[][]>(() =>
    step.evidence.map(() => step.hypotheses.map(() => null)),
  );
  const [best, setBest] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const emptyCells = marks.flat().filter((mark) => mark === null).length;
  // The matrix needs room for three toggles per hypothesis; where its box is narrower (a phone, a side panel),
  // each evidence row becomes a block of its own, so no toggle is ever out of sight.
  const phone = useMediaQuery('(max-width: 36em)');
  const { ref: matrixBox, width: boxWidth } = useElementSize();
  const matrixWidth = 160 + step.hypotheses.length * 116;
  const narrow = boxWidth > 0 ? boxWidth < matrixWidth : phone;
  const setMark = (row: number, column: number, mark: AchMark) =>
    setMarks((current) =>
      current.map((cells, r) => (r === row ? cells.map((cell, c) => (c === column ? mark : cell)) : cells)),
    );

  const legend = (
    <Text size="xs" c="dimmed">
      C = consistent with the hypothesis, I = inconsistent, N = not applicable.
    </Text>
  );

  if (!result) {
    return (
      <AnswerForm
        busy={busy}
        onSubmit={() => {
          if (emptyCells > 0 || best === null) {
            setMissing(true);
            return;
          }
          onSubmit({ marks: marks.map((row) => row.map((mark) => mark!)), best: Number(best) });
        }}
      >
        <HypothesisList hypotheses={step.hypotheses} />
        {legend}
        <div ref={matrixBox}>
          {narrow ? (
            // On a phone each evidence row is its own block: a matrix of 3 x 5 toggles would not fit.
            <Stack component="ol" gap="sm" className={classes.plainList} aria-label="Evidence">
              {step.evidence.map((evidence, row) => (
                <li key={row} className={classes.lockedOption}>
                  <Text size="sm" fw={600} className={classes.preWrap} mb={6}>
                    {row + 1}. {evidence}
                  </Text>
                  <Stack gap={6}>
                    {step.hypotheses.map((_, column) => (
                      <Group key={column} gap="sm" wrap="nowrap" justify="space-between">
                        <Text size="sm" fw={700} aria-hidden>
                          {hypothesisName(column)}
                        </Text>
                        <MarkCell
                          name={`${baseName}-${row}-${column}`}
                          legend={`Evidence ${row + 1} against ${hypothesisName(column)}`}
                          value={marks[row]![column]!}
                          disabled={busy}
                          onChange={(mark) => setMark(row, column, mark)}
                        />
                      </Group>
                    ))}
                  </Stack>
                </li>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={matrixWidth} scrollAreaProps={focusableScroll('Evidence matrix')}>
              <Table fz="sm" verticalSpacing={6} horizontalSpacing={6} withRowBorders>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Evidence</Table.Th>
                    {step.hypotheses.map((hypothesis, index) => (
                      <Table.Th scope="col" key={index} ta="center" title={hypothesis}>
                        {hypothesisName(index)}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {step.evidence.map((evidence, row) => (
                    <Table.Tr key={row}>
                      <Table.Th scope="row" fw={400} className={classes.preWrap}>
                        {evidence}
                      </Table.Th>
                      {step.hypotheses.map((_, column) => (
                        <Table.Td key={column} ta="center">
                          <MarkCell
                            name={`${baseName}-${row}-${column}`}
                            legend={`Evidence ${row + 1} against ${hypothesisName(column)}`}
                            value={marks[row]![column]!}
                            disabled={busy}
                            onChange={(mark) => setMark(row, column, mark)}
                          />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </div>
        <Radio.Group
          value={best}
          onChange={setBest}
          label="Most likely hypothesis"
          error={missing && best === null ? 'Pick the most likely hypothesis.' : undefined}
        >
          <Stack gap={6} mt="xs">
            {step.hypotheses.map((hypothesis, index) => (
              <Radio
                key={index}
                value={String(index)}
                disabled={busy}
                label={`${hypothesisName(index)}: ${hypothesis}`}
              />
            ))}
          </Stack>
        </Radio.Group>
        {missing && emptyCells > 0 && (
          <Alert color="red" variant="light" role="alert" p="xs">
            Mark every cell: {emptyCells} {emptyCells === 1 ? 'cell is' : 'cells are'} still empty.
          </Alert>
        )}
      </AnswerForm>
    );
  }

  return (
    <Stack gap="xs">
      <HypothesisList hypotheses={result.hypotheses} />
      <Text size="sm">
        {result.cellsRight} of {result.cellCount} cells match the key. Most likely: you picked{' '}
        {hypothesisName(result.best.given)}, the key is {hypothesisName(result.best.key)}.
      </Text>
      {legend}
      <Table.ScrollContainer
        minWidth={160 + result.hypotheses.length * 96}
        scrollAreaProps={focusableScroll('Evidence matrix against the key')}
      >
        <Table fz="sm" verticalSpacing={6} horizontalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Evidence</Table.Th>
              {result.hypotheses.map((hypothesis, index) => (
                <Table.Th scope="col" key={index} ta="center" title={hypothesis}>
                  {hypothesisName(index)}
                  {index === result.best.key ? ' (most likely)' : ''}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.rows.map((row, rowIndex) => (
              <Table.Tr key={rowIndex}>
                <Table.Th scope="row" fw={400} className={classes.preWrap}>
                  {row.text}
                </Table.Th>
                {row.cells.map((cell, column) => (
                  <Table.Td
                    key={column}
                    ta="center"
                    className={classes.achResultCell}
                    data-state={cell.right ? 'correct' : 'wrong'}
                  >
                    <Group gap={4} justify="center" wrap="nowrap">
                      <VerdictIcon verdict={cell.right ? 'right' : 'wrong'} size="xs" />
                      <span>
                        {cell.right ? cell.key : `${cell.given ?? '-'} → ${cell.key}`}
                        <VisuallyHidden>
                          {cell.right
                            ? ` ${ACH_MARK_LABELS[cell.key]}, right`
                            : `: you marked ${cell.given ? ACH_MARK_LABELS[cell.given] : 'nothing'}, the key is ${ACH_MARK_LABELS[cell.key]}`}
                        </VisuallyHidden>
                      </span>
                    </Group>
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <VerdictIcon verdict={result.best.right ? 'right' : 'wrong'} />
        <Text size="sm">
          Most likely hypothesis: {hypothesisName(result.best.key)} {result.hypotheses[result.best.key]}
          {result.best.right ? ' (your pick)' : ` (you picked ${hypothesisName(result.best.given)})`}
        </Text>
      </Group>
    </Stack>
  );
}
