/** Timestamps are stored as ISO-8601 UTC text (see the first migration). */
export function nowIso(): string {
  return new Date().toISOString();
}

export function isoFromNow(milliseconds: number): string {
  return new Date(Date.now() + milliseconds).toISOString();
}
