import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { announceNotification } from '../../../lib/live-notifications';
import { notificationListQueryKey } from './get-notifications';

/**
 * Listens on GET /api/notifications/stream (Server-Sent Events) and refetches the list whenever the server
 * says there is something new. EventSource reconnects by itself; every (re)connect refetches, so nothing sent
 * while the connection was down is missed. Returns whether the stream is up (the list polls when it is not).
 */
export function useNotificationStream(enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/notifications/stream');
    const refetch = () => {
      void queryClient.invalidateQueries({ queryKey: notificationListQueryKey });
      announceNotification(); // open screens about what was notified (the approval queue) refresh too
    };
    source.addEventListener('ready', () => {
      setConnected(true);
      refetch();
    });
    source.addEventListener('notification', refetch);
    source.onerror = () => setConnected(false);
    return () => {
      source.close();
      setConnected(false);
    };
  }, [enabled, queryClient]);

  return connected;
}
