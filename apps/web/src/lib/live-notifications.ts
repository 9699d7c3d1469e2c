import { useEffect, useRef } from 'react';

// The bell's live stream says "something new for you" (a registration, or one handled by another admin); screens
// that show what notifications are about (the approval queue) listen here and refresh, with no import of the bell.
const EVENT = 'tradecraft:notification';

/** Called by the notification stream on each event and on each (re)connect, when events may have been missed. */
export function announceNotification(): void {
  window.dispatchEvent(new Event(EVENT));
}

/** Runs `callback` whenever the live stream reports something new. */
export function useOnNotification(callback: () => void): void {
  const latest = useRef(callback);
  useEffect(() => {
    latest.current = callback;
  });
  useEffect(() => {
    const listener = () => latest.current();
    window.addEventListener(EVENT, listener);
    return () => window.removeEventListener(EVENT, listener);
  }, []);
}
