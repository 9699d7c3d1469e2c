import { Alert, Anchor, Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconActivity,
  IconAlertTriangle,
  IconClipboardList,
  IconClipboardCheck,
  IconPlayerPlay,
  IconShieldX,
  IconUserCheck,
  IconUsers,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { StatCard } from '../../../ui/stat-card';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { useReviewsToGrade } from '../api/get-reviews-to-grade';
import { SetupChecklist } from '../components/setup-checklist';
import { MailStatus } from '../components/mail-status';
import { XapiStatus } from '../components/xapi-status';

export default function AdminDashboardPage() {
  const stats = useDashboardStats();
  const data = stats.data;
  const toGrade = useReviewsToGrade();

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Admin Dashboard</Title>
        <Text c="dimmed">
          What needs your attention first: registrations to approve, written answers to grade, who is active, training
          this week and failed sign-ins.
        </Text>
      </div>

      <SetupChecklist />

      {data && data.pending > 0 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Approvals waiting">
          <Group gap="xs">
            <Text size="sm">There are users pending approval.</Text>
            <Anchor component={Link} to={paths.pendingUsers} size="sm" fw={600}>
              Review
            </Anchor>
          </Group>
        </Alert>
      )}

      {stats.isError && (
        <Alert color="red" role="alert" title="Could not load the counts">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{stats.error.message}</Text>
            <Button size="compact-sm" variant="default" onClick={() => void stats.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}

      <SimpleGrid cols={{ base: 2, md: 5 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard
          label="Pending approvals"
          value={data?.pending}
          icon={IconUserCheck}
          color="yellow"
          to={paths.pendingUsers}
          hint="Open Pending Approvals"
        />
        <StatCard
          label="To grade"
          value={toGrade.data}
          icon={IconClipboardCheck}
          color="blue"
          to={paths.reviews}
          hint="Written answers · Review Queue"
        />
        <StatCard
          label="Active users"
          value={data?.activeUsers}
          icon={IconUsers}
          color="green"
          to={paths.manageUsers}
          hint="Open Manage Users"
        />
        <StatCard
          label="Runs this week"
          value={data?.runsThisWeek}
          icon={IconPlayerPlay}
          to={paths.trainingProgress}
          hint="Since Monday · Training Progress"
        />
        <StatCard
          label="Failed sign-ins today"
          value={data?.failedSignInsToday}
          icon={IconShieldX}
          color="red"
          to={paths.monitoring}
          hint="Open User Monitoring"
        />
      </SimpleGrid>

      <div>
        <Title order={2} size="h4" mb="xs">
          Records
        </Title>
        <Group gap="sm">
          <Button
            component={Link}
            to={paths.monitoring}
            variant="default"
            leftSection={<IconActivity size={16} aria-hidden />}
          >
            Sign-in activity
          </Button>
          <Button
            component={Link}
            to={paths.auditLog}
            variant="default"
            leftSection={<IconClipboardList size={16} aria-hidden />}
          >
            Audit log
          </Button>
        </Group>
      </div>

      <XapiStatus />
      <MailStatus />
    </Stack>
  );
}
