import type { NotificationList } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { notificationListQueryKey } from './get-notifications';

export const markNotificationsRead = () => api.post<{ ok: true }>('/api/notifications/read', {});

/** Opening the bell marks everything read; the badge clears at once. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onMutate: () => {
      queryClient.setQueryData<NotificationList>(notificationListQueryKey, (list) =>
        list ? { unread: 0, items: list.items.map((item) => ({ ...item, read: true })) } : list,
      );
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationListQueryKey }),
  });
}
