// The one way the web app writes a date or a time: in the browser's locale and time zone, the same fields
// everywhere ("27 Nov 2026, 19:42" in en-GB, "Nov 27, 2026, 7:42 PM" in en-US), and, where a list shows
// recency (notifications, sessions, recent runs), relative to now ("5 minutes ago") with the full date beside it.
// Formatters are built once: building an Intl formatter costs more than using one.

let dateTimeFormat: Intl.DateTimeFormat | null = null;
let dateFormat: Intl.DateTimeFormat | null = null;
let timeFormat: Intl.DateTimeFormat | null = null;
let relativeFormat: Intl.RelativeTimeFormat | null = null;

type When = string | number | Date;
const toDate = (value: When) => (value instanceof Date ? value : new Date(value));

/** "27 Nov 2026, 19:42": a moment, to the minute. */
export function formatDateTime(value: When): string {
  return (dateTimeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })).format(
    toDate(value),
  );
}

/** "27 Nov 2026": a day. */
export function formatDate(value: When): string {
  return (dateFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })).format(toDate(value));
}

/** "19:42": a time of today. */
export function formatTime(value: When): string {
  return (timeFormat ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })).format(toDate(value));
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['minute', 60],
  ['hour', 60 * 60],
  ['day', 24 * 60 * 60],
];
const RELATIVE_LIMIT_SECONDS = 7 * 24 * 60 * 60;

/**
 * "just now", "5 minutes ago", "3 hours ago", "yesterday": recency, for lists sorted by it. Beyond a week (or
 * in the future by more than a minute, a clock out of step) it is the date and time instead.
 */
export function formatRelative(value: When, now: number = Date.now()): string {
  const seconds = Math.round((toDate(value).getTime() - now) / 1000);
  if (Number.isNaN(seconds)) return '';
  if (seconds > 60 || -seconds >= RELATIVE_LIMIT_SECONDS) return formatDateTime(value);
  if (-seconds < 45) return 'just now';
  relativeFormat ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  let unit: Intl.RelativeTimeFormatUnit = 'minute';
  let size = 60;
  for (const [candidate, length] of UNITS) if (-seconds >= length) [unit, size] = [candidate, length];
  return relativeFormat.format(Math.round(seconds / size), unit);
}
