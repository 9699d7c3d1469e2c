// Day and week boundaries in the admin's own time zone (an IANA name such as Europe/Paris), computed on the
// server so the "today" counts and the date filters agree with the local times the tables show, daylight
// saving included. Pure date arithmetic shared by the log filters and the dashboard counts.

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 24 * 60 * 60 * 1000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True for a time zone this runtime knows (`UTC`, `Europe/Paris`, `America/New_York`...). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    formatterFor(value);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of `instant` in `timeZone`. */
function wallClock(instant: Date, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Minutes `timeZone` is ahead of UTC at `instant` (Europe/Paris: 60 in winter, 120 in summer). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const clock = wallClock(instant, timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The UTC instant of 00:00 on year-month-day in `timeZone` (two passes settle a daylight-saving change). */
function midnight(year: number, month: number, day: number, timeZone: string): Date {
  const utcMidnight = Date.UTC(year, month - 1, day);
  let instant = utcMidnight - zoneOffsetMinutes(new Date(utcMidnight), timeZone) * 60_000;
  instant = utcMidnight - zoneOffsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}

/** The UTC instant at which the calendar day `date` (YYYY-MM-DD) starts in `timeZone`; null for a malformed date. */
export function localDayStart(date: string, timeZone = 'UTC'): Date | null {
  const match = DATE_ONLY.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return midnight(year, month, day, timeZone);
}

/** Whole days, both ends included: [start of `from`, start of the day after `to`) as ISO strings. */
export function inclusiveDayRange(
  from: string | undefined,
  to: string | undefined,
  timeZone = 'UTC',
): { fromIso?: string; toIsoExclusive?: string } {
  const start = from ? localDayStart(from, timeZone) : null;
  const end = to && localDayStart(to, timeZone) ? new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) : null;
  return {
    ...(start ? { fromIso: start.toISOString() } : {}),
    ...(end
      ? {
          toIsoExclusive: midnight(
            end.getUTCFullYear(),
            end.getUTCMonth() + 1,
            end.getUTCDate(),
            timeZone,
          ).toISOString(),
        }
      : {}),
  };
}

/** The start of the caller's current day, as a UTC instant. */
export function startOfLocalDay(now: Date, timeZone = 'UTC'): Date {
  const clock = wallClock(now, timeZone);
  return midnight(clock.year, clock.month, clock.day, timeZone);
}

/** Monday 00:00 of the caller's current week, as a UTC instant. */
export function startOfLocalWeek(now: Date, timeZone = 'UTC'): Date {
  const clock = wallClock(now, timeZone);
  const today = new Date(Date.UTC(clock.year, clock.month - 1, clock.day));
  const daysSinceMonday = (today.getUTCDay() + 6) % 7; // getUTCDay: 0 = Sunday
  const monday = new Date(today.getTime() - daysSinceMonday * DAY_MS);
  return midnight(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), timeZone);
}
