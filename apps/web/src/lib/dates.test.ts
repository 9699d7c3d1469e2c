import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatRelative, formatTime } from './dates';

const at = new Date(2026, 10, 27, 19, 42, 35);

describe('the date formatter', () => {
  it("writes a moment, a day and a time in the browser's locale, to the minute", () => {
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
    expect(formatDateTime(at)).toBe(expected);
    expect(formatDateTime(at.toISOString())).toBe(expected);
    expect(formatDateTime(at)).not.toContain('35'); // no seconds
    expect(formatDate(at)).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(at));
    expect(formatTime(at)).toBe(new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(at));
  });

  it('writes recency relative to now within a week, and the date beyond it', () => {
    const now = at.getTime();
    const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
    expect(formatRelative(now - 10_000, now)).toBe('just now');
    expect(formatRelative(now - 5 * 60_000, now)).toBe(relative.format(-5, 'minute'));
    expect(formatRelative(now - 3 * 3_600_000, now)).toBe(relative.format(-3, 'hour'));
    expect(formatRelative(now - 26 * 3_600_000, now)).toBe(relative.format(-1, 'day'));
    expect(formatRelative(now - 8 * 86_400_000, now)).toBe(formatDateTime(now - 8 * 86_400_000));
    expect(formatRelative(now + 3_600_000, now)).toBe(formatDateTime(now + 3_600_000));
  });
});
