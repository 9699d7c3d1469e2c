import { z } from 'zod';
import { isTimeZone } from './time-range';

/**
 * The admin's IANA time zone, as the browser reports it (`Intl.DateTimeFormat().resolvedOptions().timeZone`):
 * date filters and "today" are whole days there. UTC when not sent.
 */
export const timeZoneSchema = z
  .string()
  .refine(isTimeZone, 'tz must be an IANA time zone such as Europe/Paris.')
  .default('UTC');
