import type { NotificationList } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const notificationsQueryKey = ['notifications'] as const;
export const notificationListQueryKey = [...notificationsQueryKey, 'list'] as const;

export const getNotifications = () => api.get<NotificationList>('/api/notifications');

/** While the live stream is down, the list is polled instead. */
export const notificationsQueryOptions = (options: { poll: boolean }) =>
  queryOptions({
    queryKey: notificationListQueryKey,
    queryFn: getNotifications,
    refetchInterval: options.poll ? 30_000 : false,
  });

/** `enabled` false holds the first fetch back (while the stream connects: its `ready` would refetch at once). */
export function useNotifications(options: { poll: boolean; enabled?: boolean }) {
  return useQuery({ ...notificationsQueryOptions(options), enabled: options.enabled ?? true });
}
