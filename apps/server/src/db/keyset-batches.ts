/**
 * Every row of a long export in batches: `readBatch` gets the last row of the previous batch (null for the
 * first) and reads the rows after it, so each batch is an index walk (keyset paging, never OFFSET) and memory
 * stays flat however many rows there are. Stops at the first short batch.
 */
export async function* keysetBatches<Row>(
  readBatch: (after: Row | null, limit: number) => Promise<Row[]>,
  batchSize: number,
): AsyncGenerator<Row[]> {
  let after: Row | null = null;
  for (;;) {
    const rows = await readBatch(after, batchSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!;
  }
}
