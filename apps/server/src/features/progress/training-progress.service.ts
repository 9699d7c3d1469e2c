import type { Readable } from 'node:stream';
import {
  formatScorePercent,
  neutraliseSpreadsheetCell,
  runStatusLabel,
  TRAINING_PROGRESS_CSV_COLUMNS,
  TRAINING_PROGRESS_CSV_FILENAME,
  TRAINING_PROGRESS_XLSX_FILENAME,
  type TrainingProgressPage,
  type TrainingProgressRow,
  type trainingProgressFilterSchema,
  type trainingProgressQuerySchema,
} from '@tradecraft/shared';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { spreadsheetStream, type SpreadsheetCell, type SpreadsheetFormat } from '../../plugins/downloads';
import { recordAuditAlone } from '../audit/audit.service';
import { runFigures, skillScoresOf, type SkillTally } from '../runs/run-figures';
import {
  listTrainingProgress,
  tallySkillsOfRuns,
  tallyVerdictsOfRuns,
  trainingProgressBatches,
  type RunVerdictTally,
  type TrainingProgressRowData,
} from './progress.repository';

type FilterQuery = z.output<typeof trainingProgressFilterSchema>;

function fullName(row: Pick<TrainingProgressRowData, 'first_name' | 'last_name'>): string {
  return `${row.first_name} ${row.last_name}`.trim();
}

function toRow(row: TrainingProgressRowData, verdicts: RunVerdictTally | undefined): TrainingProgressRow {
  return {
    runId: row.id,
    userId: row.user_id,
    userEmail: row.email,
    userName: fullName(row),
    ...runFigures(row),
    rightAnswers: verdicts?.right ?? 0,
    missedSteps: verdicts?.missed ?? 0,
  };
}

/** Right answers and missed steps of these runs, by run id. */
async function verdictsOfRuns(db: Db, rows: readonly TrainingProgressRowData[]) {
  const tallies = await tallyVerdictsOfRuns(
    db,
    rows.map((row) => row.id),
  );
  return new Map(tallies.map((tally) => [tally.run_id, tally]));
}

/**
 * GET /api/progress/all: one page of every user's runs, searched, sorted and paged in SQL, each with its credit
 * per analyst skill (one more query for the whole page).
 */
export async function trainingProgressPage(
  db: Db,
  query: z.output<typeof trainingProgressQuerySchema>,
): Promise<TrainingProgressPage> {
  const { rows, total, totalIsLowerBound } = await listTrainingProgress(db, { search: query.search }, query);
  const [tallies, verdicts] = await Promise.all([
    tallySkillsOfRuns(
      db,
      rows.map((row) => row.id),
    ),
    verdictsOfRuns(db, rows),
  ]);
  const byRun = new Map<string, SkillTally[]>();
  for (const tally of tallies) byRun.set(tally.run_id, [...(byRun.get(tally.run_id) ?? []), tally]);
  return {
    items: rows.map((row) => ({ ...toRow(row, verdicts.get(row.id)), skills: skillScoresOf(byRun.get(row.id) ?? []) })),
    total,
    totalIsLowerBound,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * One row of the export. The text people typed (email, name, scenario name) goes through the formula neutraliser;
 * the figures are the product's own ('-' for unknown stays '-').
 */
export function csvCells(row: TrainingProgressRow): string[] {
  return [
    neutraliseSpreadsheetCell(row.userEmail),
    neutraliseSpreadsheetCell(row.userName),
    neutraliseSpreadsheetCell(row.scenarioName),
    String(row.score),
    String(row.stepCount),
    formatScorePercent(row.scorePercent),
    String(row.rightAnswers),
    String(row.missedSteps),
    row.result,
    runStatusLabel(row.completed),
    row.startedAt,
    row.finishedAt ?? '',
    row.runId,
  ];
}

export const TRAINING_PROGRESS_FILENAMES: Record<SpreadsheetFormat, string> = {
  csv: TRAINING_PROGRESS_CSV_FILENAME,
  xlsx: TRAINING_PROGRESS_XLSX_FILENAME,
};

/**
 * training_progress.csv or .xlsx of every run matching the search, newest first, streamed batch by batch so
 * memory stays flat however many runs there are. The export is audited.
 */
export async function exportTrainingProgress(
  db: Db,
  admin: User,
  query: FilterQuery,
  format: SpreadsheetFormat,
): Promise<Readable> {
  await recordAuditAlone(db, {
    actor: admin.email,
    action: 'export training progress',
    details: `Downloaded ${TRAINING_PROGRESS_FILENAMES[format]} (${query.search ? `user contains "${query.search}"` : 'all runs'})`,
    screen: 'Training Progress',
  });
  const filters = { search: query.search };
  async function* batches(): AsyncGenerator<SpreadsheetCell[][]> {
    for await (const batch of trainingProgressBatches(db, filters)) {
      const verdicts = await verdictsOfRuns(db, batch);
      yield batch.map((row) => csvCells(toRow(row, verdicts.get(row.id))));
    }
  }
  return spreadsheetStream(format, {
    sheetName: 'Training progress',
    columns: TRAINING_PROGRESS_CSV_COLUMNS.map((header) => ({ header, width: header === 'Run' ? 38 : 20 })),
    batches: batches(),
  });
}
