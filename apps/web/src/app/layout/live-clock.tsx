import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';

// Built once, on the first tick: building a time formatter costs tens of milliseconds, too much for every second
// and too much for the first paint of every signed-in page. The same fields as toLocaleTimeString().
let timeFormat: Intl.DateTimeFormat | null = null;
const formatTime = (date: Date) =>
  (timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' })).format(
    date,
  );

/**
 * The top bar's clock, refreshed every second. It starts after the page's first paint (the frame draws without
 * it), in a box of its own width, so its arrival moves nothing.
 */
export function LiveClock() {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    const first = window.setTimeout(() => setNow(new Date()), 0);
    const timer = window.setInterval(() => setNow(new Date()), 1000);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, []);
  return (
    <Text
      component="time"
      dateTime={now?.toISOString()}
      size="sm"
      ff="monospace"
      data-testid="live-clock"
      visibleFrom="xs"
      miw="11ch"
      ta="right"
    >
      {now ? formatTime(now) : null}
    </Text>
  );
}
