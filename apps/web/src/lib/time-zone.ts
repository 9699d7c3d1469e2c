/**
 * The admin's IANA time zone (Europe/Paris), sent as `tz` with every query whose dates are days: the server
 * computes the day boundaries there, daylight saving included, so counts agree with the times the tables show.
 */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
