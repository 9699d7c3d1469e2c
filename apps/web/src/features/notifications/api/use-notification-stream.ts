import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { announceNotification } from '../../../lib/live-notifications';
import { notificationListQueryKey } from './get-notifications';

/** How long the list waits for the stream's first `ready` before fetching (and polling) without it. */
export const READY_TIMEOUT_MS = 3000;

/** `connecting` until the stream first answers; then `open`, or `down` while it is not. */
export type StreamState = 'connecting' | 'open' | 'down';

/**
 * Listens on GET /api/notifications/stream (Server-Sent Events) and refetches the list whenever the server
 * says there is something new. EventSource reconnects by itself; every reconnect refetches, so nothing sent
 * while the connection was down is missed. The list waits for the first `ready` (or the first failure) before
 * its first fetch, so a page fetches it once, not once on mount and again when the stream opens. Returns the
 * stream's state (the list polls while it is down).
 */
export function useNotificationStream(enabled: boolean): StreamState {
  const queryClient = useQueryClient();
  const supported = typeof EventSource !== 'undefined';
  const [state, setState] = useState<StreamState>(supported ? 'connecting' : 'down');

  useEffect(() => {
    if (!enabled || !supported) return;
    const source = new EventSource('/api/notifications/stream');
    let first = true;
    // A proxy that buffers the stream never lets `ready` through: fall back to polling rather than wait. The list
    // fetches now, so a `ready` that comes late catches up on what was notified before it subscribed.
    const giveUp = window.setTimeout(() => {
      if (!first) return;
      first = false;
      setState('down');
    }, READY_TIMEOUT_MS);
    const refetch = () => {
      void queryClient.invalidateQueries({ queryKey: notificationListQueryKey });
      announceNotification(); // open screens about what was notified (the approval queue) refresh too
    };
    source.addEventListener('ready', () => {
      window.clearTimeout(giveUp);
      setState('open');
      // The first connection enables the list, which then fetches; later ones catch up on what was missed.
      if (!first) refetch();
      first = false;
    });
    source.addEventListener('notification', refetch);
    source.onerror = () => {
      first = false;
      setState('down');
    };
    return () => {
      window.clearTimeout(giveUp);
      source.close();
      setState(supported ? 'connecting' : 'down');
    };
  }, [enabled, supported, queryClient]);

  return state;
}
