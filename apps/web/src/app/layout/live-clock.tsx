import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';

/** The top bar's clock, refreshed every second. */
export function LiveClock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <Text
      component="time"
      dateTime={now.toISOString()}
      size="sm"
      ff="monospace"
      data-testid="live-clock"
      visibleFrom="xs"
    >
      {now.toLocaleTimeString()}
    </Text>
  );
}
