import type { MailStatusResponse } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const mailStatusQueryKey = ['mail', 'status'] as const;

/** How mail to the SMTP server stands (off when SMTP_URL is not set). */
export const getMailStatus = () => api.get<MailStatusResponse>('/api/mail/status');

export const useMailStatus = () =>
  useQuery(queryOptions({ queryKey: mailStatusQueryKey, queryFn: getMailStatus, refetchInterval: 60_000 }));
