import { describe, expect, it } from 'vitest';
import {
  inclusiveDayRange,
  isTimeZone,
  localDayStart,
  startOfLocalDay,
  startOfLocalWeek,
  zoneOffsetMinutes,
} from './time-range';

describe("day and week boundaries in the caller's time zone", () => {
  it('knows IANA time zones and refuses anything else', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('-120')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('follows daylight saving time: Paris is UTC+1 in winter and UTC+2 in summer', () => {
    expect(zoneOffsetMinutes(new Date('2026-01-15T12:00:00Z'), 'Europe/Paris')).toBe(60);
    expect(zoneOffsetMinutes(new Date('2026-07-15T12:00:00Z'), 'Europe/Paris')).toBe(120);
    expect(zoneOffsetMinutes(new Date('2026-07-15T12:00:00Z'), 'America/New_York')).toBe(-240);
  });

  it('starts a day at local midnight', () => {
    expect(localDayStart('2026-03-02')?.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(localDayStart('2026-03-02', 'Europe/Paris')?.toISOString()).toBe('2026-03-01T23:00:00.000Z');
    expect(localDayStart('2026-07-02', 'Europe/Paris')?.toISOString()).toBe('2026-07-01T22:00:00.000Z');
    expect(localDayStart('2026-03-02', 'America/New_York')?.toISOString()).toBe('2026-03-02T05:00:00.000Z');
    expect(localDayStart('2026-02-30')).toBeNull();
    expect(localDayStart('yesterday')).toBeNull();
  });

  it('includes both whole days of a range, whatever the length of a day that changes the clocks', () => {
    expect(inclusiveDayRange('2026-03-01', '2026-03-02')).toEqual({
      fromIso: '2026-03-01T00:00:00.000Z',
      toIsoExclusive: '2026-03-03T00:00:00.000Z',
    });
    // 29 March 2026 in Paris has 23 hours: it starts at 23:00 UTC and the next day at 22:00 UTC.
    expect(inclusiveDayRange('2026-03-29', '2026-03-29', 'Europe/Paris')).toEqual({
      fromIso: '2026-03-28T23:00:00.000Z',
      toIsoExclusive: '2026-03-29T22:00:00.000Z',
    });
    expect(inclusiveDayRange(undefined, undefined)).toEqual({});
  });

  it('finds the start of today and of the week (Monday) for the caller', () => {
    const wednesdayLateUtc = new Date('2026-03-04T23:30:00.000Z');
    expect(startOfLocalDay(wednesdayLateUtc).toISOString()).toBe('2026-03-04T00:00:00.000Z');
    // In Paris it is already Thursday 00:30.
    expect(startOfLocalDay(wednesdayLateUtc, 'Europe/Paris').toISOString()).toBe('2026-03-04T23:00:00.000Z');
    expect(startOfLocalWeek(wednesdayLateUtc).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(startOfLocalWeek(new Date('2026-03-08T12:00:00.000Z')).toISOString()).toBe('2026-03-02T00:00:00.000Z'); // Sunday
    expect(startOfLocalWeek(new Date('2026-03-09T00:00:00.000Z')).toISOString()).toBe('2026-03-09T00:00:00.000Z'); // Monday
    // Sunday 23:30 UTC is Monday 00:30 in Paris: a new week there.
    expect(startOfLocalWeek(new Date('2026-03-08T23:30:00.000Z'), 'Europe/Paris').toISOString()).toBe(
      '2026-03-08T23:00:00.000Z',
    );
    // The week that changes the clocks: Monday 30 March 2026 starts at 22:00 UTC the day before (UTC+2).
    expect(startOfLocalWeek(new Date('2026-04-01T12:00:00.000Z'), 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T22:00:00.000Z',
    );
  });
});
