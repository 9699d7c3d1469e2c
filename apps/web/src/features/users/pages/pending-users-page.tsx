import type { PendingUser } from '@tradecraft/shared';
import { Alert, Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCheck, IconShieldCheck, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { useOnNotification } from '../../../lib/live-notifications';
import { DataTable } from '../../../ui/data-table';
import { useApproveUser } from '../api/approve-user';
import { pendingUsersQueryKey, usePendingUsers } from '../api/get-pending-users';
import { useRejectUser } from '../api/reject-user';
import { formatDateTime } from '../../../lib/dates';

const column = createColumnHelper<PendingUser>();
const fullName = (user: PendingUser) => `${user.firstName} ${user.lastName}`;

export default function PendingUsersPage() {
  const pending = usePendingUsers();
  const approve = useApproveUser();
  const reject = useRejectUser();
  const [rejecting, setRejecting] = useState<PendingUser | null>(null);
  const [promoting, setPromoting] = useState<PendingUser | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  // A registration arrives, or another admin handles one: the queue follows without a reload.
  useOnNotification(() => void queryClient.invalidateQueries({ queryKey: pendingUsersQueryKey }));

  const busyId = approve.isPending ? approve.variables?.id : reject.isPending ? reject.variables : undefined;

  const approveAs = (user: PendingUser, role: 'student' | 'admin') => {
    setActionError(null);
    approve.mutate(
      { id: user.id, role },
      {
        onSuccess: () => {
          notifications.show({ message: `Approved ${fullName(user)} as ${role}.`, color: 'green' });
          setPromoting(null);
        },
        onError: (error) => {
          setActionError(error.message);
          setPromoting(null);
          void pending.refetch();
        },
      },
    );
  };

  const columns = (() => {
    return [
      column.accessor(fullName, {
        id: 'name',
        header: 'Name',
        size: 200,
        meta: { wrap: true },
        cell: (info) => (
          <>
            <Text size="sm" fw={600}>
              {info.getValue()}
            </Text>
            <Text size="xs" c="dimmed">
              {info.row.original.designation || 'No designation given'}
            </Text>
          </>
        ),
      }),
      column.accessor('email', { id: 'email', header: 'Email', size: 220 }),
      column.accessor('registeredAt', {
        id: 'registeredAt',
        header: 'Registered',
        size: 170,
        cell: (info) => <time dateTime={info.getValue()}>{formatDateTime(info.getValue())}</time>,
      }),
      column.display({
        id: 'actions',
        header: 'Actions',
        size: 200,
        enableSorting: false,
        meta: { actions: true },
        cell: (info) => {
          const user = info.row.original;
          const busy = busyId === user.id;
          return (
            <Stack gap={4} align="flex-start">
              <Button
                size="compact-sm"
                leftSection={<IconCheck size={14} aria-hidden />}
                disabled={busy}
                onClick={() => approveAs(user, 'student')}
              >
                Approve as Student
              </Button>
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconShieldCheck size={14} aria-hidden />}
                disabled={busy}
                onClick={() => {
                  setActionError(null);
                  setPromoting(user);
                }}
              >
                Approve as Admin
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                leftSection={<IconX size={14} aria-hidden />}
                disabled={busy}
                onClick={() => {
                  setActionError(null);
                  setRejecting(user);
                }}
              >
                Reject
              </Button>
            </Stack>
          );
        },
      }),
    ];
  })();

  const confirmReject = () => {
    if (!rejecting) return;
    const user = rejecting;
    reject.mutate(user.id, {
      onSuccess: () => {
        notifications.show({ message: `Rejected the registration of ${fullName(user)}.`, color: 'gray' });
        setRejecting(null);
      },
      onError: (error) => {
        setActionError(error.message);
        setRejecting(null);
        void pending.refetch();
      },
    });
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Pending Approvals</Title>
        <Text c="dimmed">
          New registrations wait here until you approve them as a trainee or an admin, or reject them.
        </Text>
      </div>

      {actionError && (
        <Alert
          color="red"
          icon={<IconAlertCircle aria-hidden />}
          role="alert"
          withCloseButton
          onClose={() => setActionError(null)}
          closeButtonLabel="Dismiss"
        >
          {actionError}
        </Alert>
      )}

      <DataTable
        label="Pending registrations"
        columns={columns}
        data={pending.data}
        getRowId={(user) => user.id}
        isLoading={pending.isPending}
        error={pending.error}
        onRetry={() => void pending.refetch()}
        emptyMessage="No one is waiting for approval. New registrations appear here (and in the bell) as they arrive."
        itemName="registrations"
        initialSorting={[{ id: 'registeredAt', desc: false }]}
      />

      <Modal opened={promoting !== null} onClose={() => setPromoting(null)} title="Approve as administrator" centered>
        {promoting && (
          <Stack>
            <Text>
              Make <strong>{fullName(promoting)}</strong> ({promoting.email}) an administrator? An admin can:
            </Text>
            <List size="sm" spacing={4}>
              <List.Item>approve or reject registrations, and edit, disable or promote any account</List.Item>
              <List.Item>publish and delete scenarios, and set the platform difficulty</List.Item>
              <List.Item>read every trainee&apos;s runs and reports, grade written answers</List.Item>
              <List.Item>read the sign-in log and the audit log</List.Item>
            </List>
            <Text size="sm" c="dimmed">
              Cancel leaves the registration pending. To give access to the training only, approve as Student.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPromoting(null)}>
                Cancel
              </Button>
              <Button
                leftSection={<IconShieldCheck size={16} aria-hidden />}
                loading={approve.isPending}
                onClick={() => approveAs(promoting, 'admin')}
              >
                Approve as Admin
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>

      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title="Reject registration" centered>
        {rejecting && (
          <Stack>
            <Text>
              Reject the registration of <strong>{fullName(rejecting)}</strong> ({rejecting.email})? The record is
              deleted; they can register again.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRejecting(null)}>
                Cancel
              </Button>
              <Button color="red" loading={reject.isPending} onClick={confirmReject}>
                Reject
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
