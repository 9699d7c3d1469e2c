import { describe, expect, it } from 'vitest';
import { inclusiveDayRange, localDayStart, startOfLocalDay, startOfLocalWeek } from './time-range';

describe('day and week boundaries in the caller\'s time zone', () => {
  it('starts a day at local midnight (tz is Date#getTimezoneOffset: UTC+2 is -120)', () => {
    expect(localDayStart('2026-03-02')?.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(localDayStart('2026-03-02', -120)?.toISOString()).toBe('2026-03-01T22:00:00.000Z');
    expect(localDayStart('2026-03-02', 300)?.toISOString()).toBe('2026-03-02T05:00:00.000Z');
    expect(localDayStart('2026-02-30')).toBeNull();
    expect(localDayStart('yesterday')).toBeNull();
  });

  it('includes both whole days of a range', () => {
    expect(inclusiveDayRange('2026-03-01', '2026-03-02')).toEqual({
      fromIso: '2026-03-01T00:00:00.000Z',
      toIsoExclusive: '2026-03-03T00:00:00.000Z',
    });
    expect(inclusiveDayRange(undefined, '2026-03-02', 60)).toEqual({ toIsoExclusive: '2026-03-03T01:00:00.000Z' });
    expect(inclusiveDayRange(undefined, undefined)).toEqual({});
  });

  it('finds the start of today and of the week (Monday) for the caller', () => {
    const wednesdayLateUtc = new Date('2026-03-04T23:30:00.000Z');
    expect(startOfLocalDay(wednesdayLateUtc).toISOString()).toBe('2026-03-04T00:00:00.000Z');
    // At UTC+2 it is already Thursday 01:30.
    expect(startOfLocalDay(wednesdayLateUtc, -120).toISOString()).toBe('2026-03-04T22:00:00.000Z');
    expect(startOfLocalWeek(wednesdayLateUtc).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(startOfLocalWeek(new Date('2026-03-08T12:00:00.000Z')).toISOString()).toBe('2026-03-02T00:00:00.000Z'); // Sunday
    expect(startOfLocalWeek(new Date('2026-03-09T00:00:00.000Z')).toISOString()).toBe('2026-03-09T00:00:00.000Z'); // Monday
    // Sunday 23:30 UTC is Monday 01:30 at UTC+2: a new week there.
    expect(startOfLocalWeek(new Date('2026-03-08T23:30:00.000Z'), -120).toISOString()).toBe('2026-03-08T22:00:00.000Z');
  });
});
