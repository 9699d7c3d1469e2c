import { hasRole } from '@tradecraft/shared';
import { ActionIcon, Anchor, AppShell, Box, Burger, Group, NavLink, ScrollArea, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconAdjustments,
  IconChartBar,
  IconClipboardList,
  IconFileUpload,
  IconHelpCircle,
  IconLayoutDashboard,
  IconListCheck,
  IconMail,
  IconSettings,
  IconShieldLock,
  IconTarget,
  IconUser,
  IconUserCheck,
  IconUsers,
  IconActivity,
  IconTimeline,
  type Icon,
} from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useSession } from '../../features/auth/api/get-session';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { paths } from '../paths';
import { LiveClock } from './live-clock';
import { LogoutButton } from './logout-button';

interface NavItem {
  to: string;
  label: string;
  icon: Icon;
}

const MAIN_NAV: NavItem[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: IconLayoutDashboard },
  { to: paths.scenarios, label: 'Scenarios', icon: IconTarget },
];

const ADMIN_NAV: NavItem[] = [
  { to: paths.manageUsers, label: 'Manage Users', icon: IconUsers },
  { to: paths.pendingUsers, label: 'Pending Approvals', icon: IconUserCheck },
  { to: paths.monitoring, label: 'User Monitoring', icon: IconActivity },
  { to: paths.auditLog, label: 'Audit Log', icon: IconClipboardList },
  { to: paths.trainingProgress, label: 'Training Progress', icon: IconChartBar },
  { to: paths.scenarioConfig, label: 'Scenario Configurator', icon: IconListCheck },
  { to: paths.difficulty, label: 'Difficulty Adjuster', icon: IconAdjustments },
];

const TOP_LINKS: NavItem[] = [
  { to: paths.help, label: 'Help & FAQ', icon: IconHelpCircle },
  { to: paths.contact, label: 'Contact Us', icon: IconMail },
  { to: paths.settings, label: 'Settings', icon: IconSettings },
  { to: paths.profile, label: 'My Profile', icon: IconUser },
];

function SideLink({ item, onNavigate }: { item: NavItem; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const active = pathname === item.to;
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<item.icon size={18} stroke={1.6} aria-hidden />}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

/** The frame of every signed-in screen: sidebar (open at 640 px and wider), top bar, and the page. */
export function AppLayout() {
  const wide = useMediaQuery('(min-width: 40em)', true, { getInitialValueInEffect: false });
  const [opened, { toggle, close, open }] = useDisclosure(wide);
  const { user } = useSession();
  const isAdmin = hasRole(user?.role, 'admin');
  const { pathname } = useLocation();

  useEffect(() => {
    if (wide) open();
    else close();
  }, [wide, open, close]);

  const closeOnNarrow = () => {
    if (!wide) close();
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <Anchor component={Link} to={paths.home} underline="never" c="inherit">
              <Group gap={6} wrap="nowrap">
              <IconShieldLock size={22} aria-hidden />
              <Text fw={700} visibleFrom="xs">
                Tradecraft
              </Text>
              <VisuallyHidden>Tradecraft home</VisuallyHidden>
              </Group>
            </Anchor>
          </Group>
          <Group gap={4} wrap="nowrap">
            <LiveClock />
            {TOP_LINKS.map((item) => (
              <Tooltip key={item.to} label={item.label}>
                <ActionIcon
                  component={Link}
                  to={item.to}
                  variant={pathname === item.to ? 'light' : 'subtle'}
                  color={pathname === item.to ? 'accent' : 'gray'}
                  size="lg"
                  aria-label={item.label}
                  aria-current={pathname === item.to ? 'page' : undefined}
                >
                  <item.icon size={20} stroke={1.6} />
                </ActionIcon>
              </Tooltip>
            ))}
            <NotificationBell />
            <LogoutButton />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <ScrollArea>
          {MAIN_NAV.map((item) => (
            <SideLink key={item.to} item={item} onNavigate={closeOnNarrow} />
          ))}
          <SideLink item={{ to: paths.skills, label: 'ATT&CK Skill Map', icon: IconTimeline }} onNavigate={closeOnNarrow} />
          {isAdmin && (
            <>
              <SideLink item={{ to: paths.admin, label: 'Admin Panel', icon: IconShieldLock }} onNavigate={closeOnNarrow} />
              <Box pl="md" role="group" aria-label="Admin Panel">
                {ADMIN_NAV.map((item) => (
                  <SideLink key={item.to} item={item} onNavigate={closeOnNarrow} />
                ))}
              </Box>
              <SideLink item={{ to: paths.upload, label: 'Upload Scenario', icon: IconFileUpload }} onNavigate={closeOnNarrow} />
            </>
          )}
        </ScrollArea>
      </AppShell.Navbar>

      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
