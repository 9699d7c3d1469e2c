// Pure date arithmetic shared by the log filters and the dashboard counts. Kept free of zod.

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The UTC instant at which a calendar day starts for a caller whose clock is `tzOffsetMinutes` behind UTC
 * (the sign of JavaScript's Date#getTimezoneOffset: UTC+2 is -120). Returns null for a malformed date.
 */
export function localDayStart(date: string, tzOffsetMinutes = 0): Date | null {
  const match = DATE_ONLY.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utcMidnight = Date.UTC(year, month - 1, day);
  const check = new Date(utcMidnight);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return new Date(utcMidnight + tzOffsetMinutes * 60_000);
}

/** Whole days, both ends included: [start of `from`, start of the day after `to`) as ISO strings. */
export function inclusiveDayRange(
  from: string | undefined,
  to: string | undefined,
  tzOffsetMinutes = 0,
): { fromIso?: string; toIsoExclusive?: string } {
  const start = from ? localDayStart(from, tzOffsetMinutes) : null;
  const end = to ? localDayStart(to, tzOffsetMinutes) : null;
  return {
    ...(start ? { fromIso: start.toISOString() } : {}),
    ...(end ? { toIsoExclusive: new Date(end.getTime() + DAY_MS).toISOString() } : {}),
  };
}

/** The start of the caller's current day, as a UTC instant. */
export function startOfLocalDay(now: Date, tzOffsetMinutes = 0): Date {
  const local = now.getTime() - tzOffsetMinutes * 60_000;
  return new Date(Math.floor(local / DAY_MS) * DAY_MS + tzOffsetMinutes * 60_000);
}

/** Monday 00:00 of the caller's current week, as a UTC instant. */
export function startOfLocalWeek(now: Date, tzOffsetMinutes = 0): Date {
  const dayStart = startOfLocalDay(now, tzOffsetMinutes);
  const localWeekday = new Date(dayStart.getTime() - tzOffsetMinutes * 60_000).getUTCDay(); // 0 = Sunday
  const daysSinceMonday = (localWeekday + 6) % 7;
  return new Date(dayStart.getTime() - daysSinceMonday * DAY_MS);
}
