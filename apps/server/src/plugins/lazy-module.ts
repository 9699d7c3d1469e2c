/**
 * A package loaded on its first use rather than at start-up. The packages only a few requests need (spreadsheets,
 * image re-encoding, passkeys, QR codes, PDFs) each cost the server tens of megabytes of memory once loaded; a
 * server that never exports a spreadsheet never pays for it (docs/operations.md, "Memory"). A failed load is
 * tried again on the next use.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
